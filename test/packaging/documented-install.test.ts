/**
 * @module documented-install.test
 * The first hour as the documentation tells it, command for command: the shell blocks of
 * get-started's Install section and of the generated project's README, read from the Markdown and
 * run as written, in the folders they say. From a clone: the tarballs packed; beside it: a
 * project generated from them that installs with plain npm, passes its own tests and answers
 * under `npm run dev`; `tessera call` at a real terminal rolling through the tool's question;
 * the compiled server asking before it acts and acting once; an existing project installing the
 * packages. A page that says something that does not work fails here.
 */
import { mkdirSync, readFileSync, symlinkSync } from 'node:fs'
import { createServer } from 'node:net'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { hasTmux, TmuxTerminal } from '../helpers/tmux-terminal.ts'
import { WORKSPACE_ROOT } from '../workspace-sources.ts'
import {
  runBlock,
  type Serving,
  type ShellBlock,
  serveBlock,
  shellBlocks,
  startsServer,
} from './documented-commands.ts'
import { callTool, outsideFolder, run } from './tarballs.ts'

/** The address every documented command uses. */
const URL = 'http://127.0.0.1:3000/mcp'
const LISTENING = `MCP server listening on ${URL}`

const install = shellBlocks(join(WORKSPACE_ROOT, 'docs/get-started.md'), '## Install')
/** Beside a folder named `tessera` that is this clone, as the page has it. */
const parent = outsideFolder('first-hour')
symlinkSync(WORKSPACE_ROOT, join(parent, 'tessera'))
const project = join(parent, 'my-server')

/** Where a block of the Install section runs, from the comment it starts with. */
function folderOf(block: ShellBlock): string {
  switch (block.where) {
    case 'in a clone of this repository':
      return WORKSPACE_ROOT
    case 'beside the clone':
      return parent
    case 'in an existing project beside the clone': {
      const existing = join(parent, 'existing')
      mkdirSync(existing, { recursive: true })
      return existing
    }
    default:
      throw new Error(`${block.at}: the block must start with a comment saying where it runs`)
  }
}

const servers: Serving[] = []
afterAll(async () => {
  for (const server of servers) await server.stop()
})

function portIsFree(port: number): Promise<boolean> {
  const probe = createServer()
  return new Promise((resolve) => {
    probe.once('error', () => resolve(false))
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)))
  })
}

/** A server stopped a moment ago may still be closing its socket. */
async function portFrees(port: number, ms = 10_000): Promise<boolean> {
  const deadline = Date.now() + ms
  while (!(await portIsFree(port))) {
    if (Date.now() > deadline) return false
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  return true
}

async function runOrServe(block: ShellBlock, cwd: string): Promise<string> {
  if (startsServer(block)) {
    for (const server of servers.splice(0)) await server.stop()
    expect(await portFrees(3000), 'port 3000 is taken: the documented commands need it').toBe(true)
    const server = await serveBlock(block, cwd, LISTENING)
    servers.push(server)
    return server.output()
  }
  const ran = await runBlock(block, cwd)
  if (ran.code !== 0) throw new Error(`${block.at} failed (exit ${ran.code}):\n${block.text}\n${ran.output}`)
  return ran.output
}

async function callRestart(params: Record<string, unknown>): Promise<Record<string, unknown>> {
  return (await callTool(URL, 'restart_service', { service: 'api' }, { params })).result!
}

describe('the Install section of get-started, as written', () => {
  it('hasTheBlocksThisTestRunsEachSayingWhereItRuns', () => {
    expect(install.map((block) => block.where)).toEqual([
      'in a clone of this repository',
      'beside the clone',
      'in an existing project beside the clone',
    ])
  })

  it('packsEveryPackageInTheClone', async () => {
    const output = await runOrServe(install[0]!, folderOf(install[0]!))
    expect(output).toContain('Packed 10 packages into')
  })

  it('makesAProjectBesideTheCloneThatInstallsPassesItsTestsAndAnswersUnderNpmRunDev', async () => {
    const output = await runOrServe(install[1]!, folderOf(install[1]!))
    expect(output).toContain('Created my-server in my-server')
    expect(output).toMatch(/Tests\s+\d+ passed/)
    const inspected = await run(join(project, 'node_modules/.bin/tessera'), ['inspect', URL], project)
    expect(inspected.output).toContain('restart_service')
  })

  it('installsThePackagesIntoAnExistingProject', async () => {
    const existing = folderOf(install[2]!)
    expect((await run('npm', ['init', '-y'], existing)).code).toBe(0)
    await runOrServe(install[2]!, existing)
    const loaded = await run(
      'node',
      [
        '--input-type=module',
        '-e',
        "import('@tessera/core').then((m) => console.log(typeof m.createServer))",
      ],
      existing,
    )
    expect(loaded.output.trim()).toBe('function')
    const version = await run(join(existing, 'node_modules/.bin/tessera'), ['--version'], existing)
    expect(version.code).toBe(0)
  })
})

/**
 * The server's own line of the restart, read once it arrived: the answer can reach the client
 * before the line has come through the pipes (`npm run dev` relays it through `tessera dev`).
 */
async function restartedOnce(): Promise<void> {
  const restarts = () => servers[0]!.output().match(/^restarting api$/gm)?.length ?? 0
  await expect.poll(restarts, { timeout: 10_000 }).toBeGreaterThan(0)
  expect(restarts()).toBe(1)
}

describe("the generated project's README, as written", () => {
  const readme = () => shellBlocks(join(project, 'README.md'))

  it('runsItsCommandsInOrderAndTesseraCallRollsThroughTheQuestionAtATerminal', async (context) => {
    if (!hasTmux) context.skip('tmux is not installed: tessera call needs a real terminal here')
    const blocks = readme()
    const call = blocks.findIndex((block) => block.text.includes('tessera call'))
    expect(call, 'the README shows tessera call').toBeGreaterThan(0)
    for (const block of blocks.slice(0, call)) await runOrServe(block, project)
    const terminal = new TmuxTerminal(`cd '${project}' && ${blocks[call]!.text.trim()}`)
    try {
      await terminal.waitFor('Answer?', 60_000)
      terminal.keys('Enter') // Accept
      await terminal.waitFor('Yes, restart it')
      terminal.keys('Left', 'Enter') // Yes
      const done = await terminal.waitFor('EXIT=')
      expect(done).toContain('Restarted api.')
      expect(done).toContain('EXIT=0')
    } finally {
      terminal.close()
    }
    await restartedOnce()
    for (const block of blocks.slice(call + 1)) await runOrServe(block, project)
  })

  it('endsWithTheCompiledServerWhichAsksBeforeItActsAndActsOnce', async () => {
    const last = readme().at(-1)!
    expect(last.text).toContain('npm start')
    const asked = await callRestart({})
    expect(asked.resultType).toBe('input_required')
    const answer = {
      inputResponses: { confirm: { action: 'accept', content: { confirm: true } } },
      requestState: asked.requestState,
    }
    expect((await callRestart(answer)).structuredContent).toEqual({ service: 'api', restarted: true })
    await callRestart(answer)
    await restartedOnce()
    expect(readFileSync(join(project, 'dist/main.js'), 'utf8')).toContain('listen')
  })
})
