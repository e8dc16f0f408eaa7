/**
 * @module failure.test
 * How `tessera` fails when the network or the server does, as a process against real servers
 * on 127.0.0.1: a stream cut in the middle of a call, a 401 and a 403 of an OAuth resource
 * server (its JSON-RPC error and its challenge quoted), a port nothing listens on, a stdio
 * server that exits, and a wrong command line (a missing server file, a URL holding a password,
 * a misspelt option). Each is one line on stderr that says what to do, with whatever the server
 * wrote kept on that line; `--verbose` adds the stack and the cause.
 */
import { createServer } from '@tessera/core'
import { listen, type RunningServer } from '@tessera/core/http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { freePort } from '../../../../test/helpers/logged-process.ts'
import { silentLogger } from '../../../../test/helpers/silent-logger.ts'
import { sleep } from '../../../../test/helpers/timing.ts'
import { useOAuthServers } from '../../../../test/integration/fixtures/oauth-server.ts'
import { errorLine, runCli } from '../run-cli.fixture.ts'
import { oneLine } from './failure.ts'

let cutting: RunningServer

beforeAll(async () => {
  const app = createServer({ name: 'cut-fixture', version: '1.0.0', logger: silentLogger })
  // Progress opens the reply as an SSE stream; then every connection is cut, as a crash would.
  app.tool('deploy', { description: 'Starts deploying, then loses its connection' }, async (_args, ctx) => {
    ctx.progress(1, 2, 'started')
    await sleep(50)
    cutting.httpServer.closeAllConnections()
    return 'never arrives'
  })
  cutting = await listen(app, { port: 0 })
})
afterAll(() => cutting.close())

describe.each(['modern', 'handshake'])('a stream cut mid-call, %s era', (era) => {
  it('saysTheServerClosedTheStreamBeforeAnsweringInOneLine', async () => {
    const run = await runCli(['call', cutting.url, 'deploy', '--era', era])
    expect(run.code).toBe(3)
    expect(run.stderr).toContain('progress 1/2 started')
    expect(errorLine(run)).toBe(
      `tessera: the server at ${cutting.url} closed the stream before answering tools/call (other side closed): the call may have run; check the server's log before calling again.`,
    )
  })
})

describe('an OAuth resource server refusing the call', () => {
  const start = useOAuthServers()

  it('saysATokenIsRequiredQuotingTheJsonRpcErrorAndTheChallengesScope', async () => {
    const f = await start()
    for (const era of ['auto', 'handshake']) {
      const run = await runCli(['inspect', f.url, '--era', era])
      expect(run.code).toBe(3)
      expect(errorLine(run)).toBe(
        `tessera: ${f.url} requires a token: HTTP 401 "Unauthorized: an access token is required." (scope "ops:read ops:rollback"); pass -H 'Authorization: Bearer <token>'.`,
      )
    }
  })

  it('saysTheTokenGivenWasRefusedNamingTheChallengesError', async () => {
    const f = await start()
    const run = await runCli(['call', f.url, 'status', '-H', 'Authorization: Bearer abc.def.ghi'])
    expect(run.code).toBe(3)
    const line = errorLine(run)
    expect(line).toMatch(
      new RegExp(`^tessera: ${f.url} refused the token given: HTTP 401 "[^"]+" \\(error "invalid_token"`),
    )
    expect(line).toContain(`; pass a valid one with -H 'Authorization: Bearer <token>'.`)
    expect(line).not.toContain('abc.def.ghi')
  })

  it('namesTheScopeA403AsksFor', async () => {
    const f = await start()
    const token = await f.authority.mint({ scope: 'ops:read' })
    const run = await runCli([
      'call',
      f.url,
      'rollback',
      '-a',
      'service=api',
      '-H',
      `Authorization: Bearer ${token}`,
      '--era',
      'modern',
    ])
    expect(run.code).toBe(3)
    const line = errorLine(run)
    expect(line).toMatch(new RegExp(`^tessera: ${f.url} refused the token given for this request: HTTP 403 `))
    expect(line).toContain('(error "insufficient_scope", scope "ops:rollback")')
    expect(line).toContain(`; pass -H 'Authorization: Bearer <token>' with a token granted "ops:rollback".`)
    expect(line).not.toContain(token)
  })
})

describe('a server that is not there', () => {
  it('asksWhetherTheServerIsRunningWhenNothingAnswers', async () => {
    const url = `http://127.0.0.1:${await freePort()}/mcp`
    for (const command of [
      ['inspect', url],
      ['call', url, 'echo'],
    ]) {
      const run = await runCli(command)
      expect(run.code).toBe(3)
      expect(errorLine(run)).toBe(
        `tessera: nothing answers at ${url} (connection refused): is the server running?`,
      )
    }
  })

  it('quotesTheLastLineAStdioServerWroteWhenItExits', async () => {
    const command = `node -e "console.error('loading'); console.error('Error: no config file'); process.exit(2)"`
    const run = await runCli(['inspect', '--stdio', command])
    expect(run.code).toBe(3)
    expect(errorLine(run)).toBe(
      `tessera: '${command}' exited (code 2) before answering, its stderr ending "Error: no config file"; run again with --verbose to see its stderr.`,
    )
    const verbose = await runCli(['inspect', '--stdio', command, '--verbose'])
    expect(verbose.stderr).toContain('loading\nError: no config file')
  })
})

describe('--verbose', () => {
  it('addsTheStackAndTheCauseBelowTheSameLine', async () => {
    const url = `http://127.0.0.1:${await freePort()}/mcp`
    const quiet = await runCli(['inspect', url])
    const run = await runCli(['inspect', url, '--verbose'])
    expect(run.code).toBe(3)
    const [first, ...rest] = run.stderr.split('\n')
    expect(first).toBe(errorLine(quiet))
    expect(rest.join('\n')).toMatch(/\n {4}at /)
    expect(rest.join('\n')).toMatch(/cause: .*ECONNREFUSED/)
  })

  it('showsTheCauseOfACutStream', async () => {
    const run = await runCli(['call', cutting.url, 'deploy', '--verbose'])
    expect(run.stderr).toMatch(/cause: TypeError: terminated/)
    expect(run.stderr).toMatch(/cause: .*other side closed/)
  })
})

describe('a wrong command line', () => {
  it('saysWhichServerFileIsMissingAndHowToNameIt', async () => {
    const run = await runCli(['dev', 'no-such-server.ts'])
    expect(run.code).toBe(64)
    expect(errorLine(run)).toBe(
      'tessera: no-such-server.ts does not exist: give the path of the server file, e.g. tessera dev src/server.ts.',
    )
  })

  it('refusesAUrlHoldingAPasswordWithoutRepeatingIt', async () => {
    const run = await runCli(['inspect', 'http://ann:s3cret-pass@127.0.0.1:3000/mcp'])
    expect(run.code).toBe(64)
    expect(errorLine(run)).toBe(
      "tessera: The URL holds a user name or password: pass them with -H 'Authorization: …' instead.",
    )
  })

  it('saysWhatIsWrongInOneLineEvenWhenCommanderSuggestsAnOption', async () => {
    const run = await runCli(['inspect', cutting.url, '--jsno'])
    expect(run.code).toBe(64)
    expect(errorLine(run)).toBe(
      "tessera: unknown option '--jsno' (Did you mean --json?); see tessera inspect --help.",
    )
  })
})

describe('the one line a failure prints', () => {
  it('turnsLineBreaksIntoSpacesAndEscapesEveryCharacterThatCouldDisguiseTheLine', () => {
    // What a server put in its error: a forged second line, a colour code, a bidi override, U+2028.
    const said = 'refused\r\nerror 0: all fine\u001b[32m ok \u202eevil\u2028more'
    expect(oneLine(said)).toBe('refused error 0: all fine\\u001b[32m ok \\u202eevil\\u2028more')
  })
})
