/**
 * @module create-tessera.test
 * `npm create tessera` as a user runs it, from the packed `create-tessera` tarball, into a new
 * folder outside the repository; the generated project, pointed at the local tarballs, installs
 * with plain npm and passes its own `npm test`, `npm run build` and `npm start` (the compiled
 * server answers, asks before restarting, and restarts once), and `npm run dev` serves it.
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { beforeAll, describe, expect, it } from 'vitest'
import { freePort } from '../helpers/logged-process.ts'
import { cleanEnv, npmInstall, outsideFolder, packAll, run } from './tarballs.ts'

const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} } },
  'io.modelcontextprotocol/clientInfo': { name: 'generator-test', version: '1.0.0' },
}

let project: string

beforeAll(async () => {
  const tarballs = packAll()
  const parent = outsideFolder('generated')
  const created = await run(
    'npm',
    ['exec', '--yes', `--package=${tarballs.get('create-tessera')!}`, '--', 'create-tessera', 'ops-helper'],
    parent,
  )
  if (created.code !== 0) throw new Error(`create-tessera failed:\n${created.output}`)
  expect(created.output).toContain('Created ops-helper in ops-helper: 7 files.')
  project = join(parent, 'ops-helper')
  // Not yet on the registry: point the generated project at the tarballs.
  const manifest = JSON.parse(readFileSync(join(project, 'package.json'), 'utf8'))
  manifest.dependencies['@tessera/core'] = `file:${tarballs.get('@tessera/core')!}`
  manifest.devDependencies['@tessera/cli'] = `file:${tarballs.get('@tessera/cli')!}`
  manifest.overrides = { '@tessera/core': '$@tessera/core' }
  writeFileSync(join(project, 'package.json'), JSON.stringify(manifest, null, 2))
  await npmInstall(project)
}, 300_000)

describe('a project made by create-tessera', () => {
  it('passesItsOwnTests', async () => {
    const tested = await run('npm', ['test'], project)
    expect(tested.output).toMatch(/Tests\s+3 passed/)
    expect(tested.code).toBe(0)
  })

  it('buildsAndStartsCompiledAndItsToolAsksThenActsOnce', async () => {
    const built = await run('npm', ['run', 'build'], project)
    expect(built.code).toBe(0)
    const port = await freePort()
    const server: ChildProcessWithoutNullStreams = spawn('npm', ['start'], {
      cwd: project,
      env: cleanEnv({ PORT: String(port) }),
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: true,
    })
    const log: string[] = []
    const listening = new Promise<void>((resolve) =>
      createInterface({ input: server.stderr }).on('line', (line) => {
        log.push(line)
        if (line.includes('MCP server listening on')) resolve()
      }),
    )
    try {
      await listening
      const url = `http://127.0.0.1:${port}/mcp`
      const call = async (extra: Record<string, unknown>) => {
        const params = { name: 'restart_service', arguments: { service: 'api' }, _meta: META, ...extra }
        const response = await fetch(url, {
          method: 'POST',
          headers: {
            accept: 'application/json, text/event-stream',
            'content-type': 'application/json',
            'mcp-protocol-version': '2026-07-28',
            'mcp-method': 'tools/call',
            'mcp-name': 'restart_service',
          },
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params }),
        })
        return ((await response.json()) as { result: Record<string, unknown> }).result
      }
      const asked = await call({})
      expect(asked.resultType).toBe('input_required')
      const answer = {
        inputResponses: { confirm: { action: 'accept', content: { confirm: true } } },
        requestState: asked.requestState,
      }
      expect((await call(answer)).structuredContent).toEqual({ service: 'api', restarted: true })
      await call(answer)
      expect(log.filter((line) => line === 'restarting api')).toHaveLength(1)
    } finally {
      process.kill(-server.pid!, 'SIGTERM')
    }
  })

  it('servesUnderTesseraDev', async () => {
    const port = await freePort()
    const dev = spawn('npm', ['run', 'dev'], {
      cwd: project,
      env: cleanEnv({ PORT: String(port) }),
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    })
    try {
      const url = `http://127.0.0.1:${port}/mcp`
      await new Promise<void>((resolve) =>
        createInterface({ input: dev.stderr }).on('line', (line) => {
          if (line.includes(`MCP server listening on ${url}`)) resolve()
        }),
      )
      const inspected = await run(join(project, 'node_modules/.bin/tessera'), ['inspect', url], project)
      expect(inspected.output).toContain('restart_service')
    } finally {
      process.kill(-dev.pid!, 'SIGINT')
    }
  })
})
