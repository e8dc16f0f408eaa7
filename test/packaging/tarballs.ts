/**
 * @module tarballs
 * What the packaging tests install: every publishable package packed with `npm pack` from its
 * built `dist/` (run `npm run build` first), and a place outside the repository to install them,
 * so no workspace link, no tsconfig path and no tsx can help.
 */
import { spawn } from 'node:child_process'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { packTarballs } from '../../scripts/pack-tarballs.ts'

/** Packs every publishable package into a fresh folder; returns package name → tarball path. */
export const packAll = (): Map<string, string> =>
  packTarballs(mkdtempSync(join(tmpdir(), 'tessera-tarballs-')))

/** A new folder outside the repository. */
export const outsideFolder = (label: string): string => mkdtempSync(join(tmpdir(), `tessera-${label}-`))

// biome-ignore lint/suspicious/noControlCharactersInRegex: the escape is what a colour code starts with
const ANSI = /\x1b\[[0-9;]*m/g

export interface Ran {
  code: number | null
  output: string
}

/** Runs a command in `cwd` with a clean environment (no tsx, no tsconfig paths), collecting its output. */
export function run(
  command: string,
  args: string[],
  cwd: string,
  env: Record<string, string> = {},
): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env: cleanEnv(env), stdio: ['ignore', 'pipe', 'pipe'] })
    let output = ''
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString()
    })
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString()
    })
    child.once('error', reject)
    child.once('exit', (code) => resolve({ code, output: output.replaceAll(ANSI, '') }))
  })
}

/** This process's environment without what the workspace's test runner adds. */
export function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, ...extra }
  for (const name of Object.keys(env)) {
    if (name.startsWith('TSX_') || name.startsWith('VITEST') || name === 'NODE_OPTIONS') delete env[name]
  }
  env.NO_COLOR = '1'
  env.npm_config_audit = 'false'
  env.npm_config_fund = 'false'
  env.npm_config_update_notifier = 'false'
  return env
}

/** `npm install` that fails loudly, with npm's output. */
export async function npmInstall(cwd: string, args: string[] = []): Promise<void> {
  const done = await run('npm', ['install', '--no-audit', '--no-fund', ...args], cwd)
  if (done.code !== 0) throw new Error(`npm install failed in ${cwd}:\n${done.output}`)
}

/** The `_meta` of a 2026-07-28 request from the packaging tests' client, which can answer forms. */
export const MODERN_META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} } },
  'io.modelcontextprotocol/clientInfo': { name: 'packaging-test', version: '1.0.0' },
}

/** What a server answered a tool call with. */
export interface ToolCallAnswer {
  result?: Record<string, unknown> & { content?: unknown; isError?: boolean }
  error?: { code: number; message: string }
}

/**
 * A 2026-07-28 `tools/call` of `name` over HTTP, with the headers it needs. `params` adds to its
 * params (an answer's `inputResponses` and `requestState`), `headers` to its headers.
 */
export async function callTool(
  url: string,
  name: string,
  args: object,
  more: { params?: Record<string, unknown>; headers?: Record<string, string> } = {},
): Promise<ToolCallAnswer> {
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      accept: 'application/json, text/event-stream',
      'content-type': 'application/json',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/call',
      'mcp-name': name,
      ...more.headers,
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name, arguments: args, _meta: MODERN_META, ...more.params },
    }),
  })
  return (await response.json()) as ToolCallAnswer
}
