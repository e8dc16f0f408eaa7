/**
 * @module call.test
 * `tessera call` as a process against a real server, in both eras: typed arguments, text and
 * structured output, the exit codes of a tool error and a JSON-RPC error, progress on a stderr
 * that is no terminal, answers given with `--answers` (a choice, a yes/no and a number), a
 * question nothing answers, an argument mirrored into its header, a server over stdio, and a
 * malformed `--answers` refused in one line that names what is wrong with it.
 */
import { listen, type RunningServer } from '@tessera/core/http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { errorLine, runCli } from '../run-cli.fixture.ts'
import { cliServer } from './cli-server.fixture.ts'

const FIXTURE = new URL('./cli-server.fixture.ts', import.meta.url).pathname
let running: RunningServer

beforeAll(async () => {
  running = await listen(cliServer(), { port: 0 })
})
afterAll(() => running.close())

describe.each(['modern', 'handshake'])('tessera call, %s era', (era) => {
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

  it('refusesAGivenAnswerThatDoesNotAnswerAFormBeforeSendingIt', async () => {
    const run = await call('order', '--answers', '{"order":{"content":{"size":"large"}}}')
    expect(run.code).toBe(64)
    expect(errorLine(run)).toBe(
      `tessera: --answers: the answer for 'order' does not answer a form (elicitation/create): give {"action":"accept","content":{…}}, {"action":"decline"} or {"action":"cancel"}.`,
    )
  })

  it('saysTheServerDidNotTakeAGivenAnswerWhenItAsksAgain', async () => {
    const answers = { order: { action: 'accept', content: { size: 'medium', gift: true, copies: 2 } } }
    const run = await call('order', '--answers', JSON.stringify(answers))
    expect(run.code).toBe(64)
    expect(errorLine(run)).toBe(
      "tessera: --answers: the server asked 'order' again, so it did not take the answer given; check it against the question (size: small | large, gift: boolean, copies: integer).",
    )
  })

  it('saysTheServerDidNotTakeAGivenAnswerWhenATaskAsksAgain', async () => {
    const answers = { target: { action: 'accept', content: { os: 'windows' } } }
    const run = await call('build', '--answers', JSON.stringify(answers))
    expect(run.code).toBe(64)
    expect(errorLine(run)).toBe(
      "tessera: --answers: the server asked 'target' again, so it did not take the answer given; check it against the question (os: linux | mac).",
    )
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
      "The server has no tool 'nope' (tools: echo, fails, progress, order, build, route, warm_up).",
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

describe('tessera call --answers, malformed', () => {
  it.each([
    [
      '{"order":',
      /^tessera: --answers is not JSON \(.+\): give an object of answers by question key, e\.g\. '\{/,
    ],
    ['[1]', /^tessera: --answers must be an object of answers by question key, not an array: e\.g\. '\{/],
    [
      '{"order":"yes"}',
      /^tessera: --answers: the answer for 'order' must be an object such as .+, not the string "yes"\.$/,
    ],
    [
      '{"order":{"action":"yes"}}',
      /the answer for 'order' has action "yes": it must be "accept", "decline" or "cancel"\.$/,
    ],
    [
      '{"order":{"action":"accept","content":[1]}}',
      /the answer for 'order' has content that is an array: it must be an object/,
    ],
    [
      '{"order":{"action":"accept","content":{"size":{"name":"large"}}}}',
      /the answer for 'order' has content\.size that is an object: a field value is a string, a number/,
    ],
  ])('refusesAMalformedAnswersFlagInOneLineNamingWhatIsWrong%s', async (answers, expected) => {
    // Checked before anything is sent: the call never reaches the tool.
    const run = await runCli(['call', running.url, 'order', '--answers', answers])
    expect(run.code).toBe(64)
    expect(errorLine(run)).toMatch(expected)
  })
})
