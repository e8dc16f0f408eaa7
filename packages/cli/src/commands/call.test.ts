/**
 * @module call.test
 * `tessera call` as a process against a real server, in both eras: typed arguments, text and
 * structured output, the exit codes of a tool error and a JSON-RPC error, progress on a stderr
 * that is no terminal, answers given with `--answers` (a choice, a yes/no and a number), a
 * question nothing answers, an argument mirrored into its header, and a server over stdio.
 */
import { listen, type RunningServer } from '@tessera/core/http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runCli } from '../run-cli.fixture.ts'
import { cliServer } from './cli-server.fixture.ts'

const FIXTURE = new URL('./cli-server.fixture.ts', import.meta.url).pathname
let running: RunningServer

beforeAll(async () => {
  running = await listen(cliServer(), { port: 0 })
})
afterAll(() => running.close())

describe.each(['modern', 'legacy'])('tessera call, %s era', (era) => {
  const call = (...args: string[]) => runCli(['call', running.url, ...args, '--era', era])

  it('typesEachArgByTheSchemaAndPrintsTextThenStructuredContent', async () => {
    const { code, stdout } = await call('echo', '-a', 'text=ab', '-a', 'count=2', '-a', 'loud=true')
    expect(code).toBe(0)
    expect(stdout).toBe('ABAB\n{\n  "said": "ABAB"\n}\n')
  })

  it('exits1WhenTheToolReportsAnError', async () => {
    const { code, stdout } = await call('fails')
    expect(code).toBe(1)
    expect(stdout).toContain('the disk is full')
  })

  it('exits2OnAJsonRpcErrorAndSaysWhichCode', async () => {
    const { code, stderr } = await call('echo', '--json', '{"text":5}')
    expect(code).toBe(2)
    expect(stderr).toMatch(/^error -32602: /)
  })

  it('showsProgressOnStderrAndTheResultOnStdout', async () => {
    const { code, stdout, stderr } = await call('progress')
    expect(code).toBe(0)
    expect(stdout).toBe('all steps done\n')
    expect(stderr).toContain('progress 1/3 step 1\nprogress 2/3 step 2\nprogress 3/3 step 3\n')
  })

  it('takesAnswersByKeyFromAnswers', async () => {
    const answers = { order: { action: 'accept', content: { size: 'large', gift: true, copies: 2 } } }
    const { code, stdout } = await call('order', '--answers', JSON.stringify(answers))
    expect(code).toBe(0)
    expect(stdout).toBe('2 large gift-wrapped\n')
    const declined = await call('order', '--answers', '{"order":{"action":"decline"}}')
    expect(declined.stdout).toBe('no order (decline)\n')
  })

  it('followsATaskToItsResultAnsweringWhatItAsksOnTheWay', async () => {
    const answers = { target: { action: 'accept', content: { os: 'linux' } } }
    const { code, stdout, stderr } = await call('build', '--answers', JSON.stringify(answers))
    expect(code).toBe(0)
    // A 2026-07-28 server offering tasks gets the extension declared; a session runs it synchronously.
    expect(stdout).toBe(`built for linux (${era === 'modern' ? 'as a task' : 'synchronously'})\n`)
    expect(stderr).toContain('progress 1/2 compiling')
  })

  it('exits3WhenTheServerAsksAndNothingCanAnswer', async () => {
    const { code, stderr } = await call('order')
    expect(code).toBe(3)
    expect(stderr).toContain("The server asks 'order' and stdin is not a terminal: answer it with --answers.")
  })

  it('mirrorsAnAnnotatedArgumentIntoItsHeader', async () => {
    const { code, stdout } = await call('route', '-a', 'region=eu-west')
    expect(code).toBe(0)
    expect(stdout).toBe('routed to eu-west\n')
  })

  it('refusesAToolTheServerDoesNotHaveNamingTheOnesItHas', async () => {
    const { code, stderr } = await call('nope')
    expect(code).toBe(64)
    expect(stderr).toContain(
      "The server has no tool 'nope' (tools: echo, fails, progress, order, build, route).",
    )
  })
})

describe('tessera call --stdio', () => {
  it('callsAToolOfAServerItRuns', async () => {
    const command = `node --import tsx ${FIXTURE} --serve-stdio`
    const { code, stdout } = await runCli(['call', '--stdio', command, 'echo', '-a', 'text=over stdio'])
    expect(code).toBe(0)
    expect(stdout.split('\n')[0]).toBe('over stdio')
    const progress = await runCli(['call', '--stdio', command, 'progress'])
    expect(progress.stderr).toContain('progress 3/3 step 3')
  })
})
