/**
 * @module inspect.test
 * `tessera inspect` as a process against a real server: over HTTP in either era (auto finds
 * 2026-07-28), over stdio, as JSON, and the exit codes when the server cannot be reached or the
 * command line is wrong.
 */
import { listen, type RunningServer } from '@tessera/core/http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { freePort } from '../../../../test/helpers/logged-process.ts'
import { runCli } from '../run-cli.fixture.ts'
import { cliServer } from './cli-server.fixture.ts'

const FIXTURE = new URL('./cli-server.fixture.ts', import.meta.url).pathname
let running: RunningServer

beforeAll(async () => {
  running = await listen(cliServer(), { port: 0 })
})
afterAll(() => running.close())

describe('tessera inspect', () => {
  it('showsTheServerItsEraAndEachToolWithItsInputFields', async () => {
    const { code, stdout } = await runCli(['inspect', running.url])
    expect(code).toBe(0)
    expect(stdout).toContain('cli-fixture 2.0.0')
    expect(stdout).toContain('protocol 2026-07-28 (stateless)')
    expect(stdout).toContain('Tools (7)')
    expect(stdout).toMatch(
      /echo\n\s+Echoes typed arguments\n\s+text: string \(required\)\n\s+count: integer \(optional\)/,
    )
    expect(stdout).toContain('Resources (0)')
  })

  it('speaksTheHandshakeEraWhenAskedTo', async () => {
    const { code, stdout } = await runCli(['inspect', running.url, '--era', 'handshake'])
    expect(code).toBe(0)
    expect(stdout).toContain('protocol 2025-11-25 (session)')
    expect(stdout).toContain('Tools (7)')
  })

  it('printsOneJsonDocumentWithJson', async () => {
    const { code, stdout } = await runCli(['inspect', running.url, '--json'])
    expect(code).toBe(0)
    const offer = JSON.parse(stdout)
    expect(offer.server).toMatchObject({ era: 'modern', serverInfo: { name: 'cli-fixture' } })
    expect(offer.tools.map((t: { name: string }) => t.name)).toEqual([
      'echo',
      'fails',
      'progress',
      'order',
      'build',
      'route',
      'warm_up',
    ])
  })

  it('runsAServerOverStdio', async () => {
    const { code, stdout } = await runCli([
      'inspect',
      '--stdio',
      `node --import tsx ${FIXTURE} --serve-stdio`,
    ])
    expect(code).toBe(0)
    expect(stdout).toContain('cli-fixture 2.0.0')
    expect(stdout).toContain('Tools (7)')
  })

  it('exits3WhenTheServerCannotBeReachedAnd64OnBadUsage', async () => {
    const url = `http://127.0.0.1:${await freePort()}/mcp`
    const gone = await runCli(['inspect', url])
    expect(gone.code).toBe(3)
    expect(gone.stderr).toContain(`nothing answers at ${url} (connection refused)`)
    expect((await runCli(['inspect', running.url, '--era', 'newest'])).code).toBe(64)
    expect((await runCli(['inspect', 'ftp://x'])).code).toBe(64)
    expect((await runCli(['inspect'])).code).toBe(64)
  })
})
