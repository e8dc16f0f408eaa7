/**
 * @module pino-logger.test
 * The default logger is pino on stderr: an error logged under `err` keeps its type, message and
 * stack, levels below warn (or `TESSERA_LOG_LEVEL`) are dropped, stdout (the stdio transport's) stays empty,
 * credentials are redacted, and pino is loaded only when a line at the logger's level is written.
 */
import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const LOGGER = new URL('./pino-logger.ts', import.meta.url).href

function logInChild(
  body: string,
  env: Record<string, string> = {},
): { stdout: string; lines: Array<Record<string, unknown>> } {
  const script = `const { defaultLogger } = await import(${JSON.stringify(LOGGER)})\nconst logger = defaultLogger()\n${body}`
  const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: fileURLToPath(new URL('../../../..', import.meta.url)),
    encoding: 'utf8',
    env: { ...process.env, TESSERA_LOG_LEVEL: '', ...env },
    timeout: 20_000,
  })
  if (child.status !== 0) throw new Error(`child failed: ${child.stderr}`)
  const lines = child.stderr
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>)
  return { stdout: child.stdout, lines }
}

describe('defaultLogger', () => {
  it('keepsTheMessageAndStackOfAnErrorAndWritesNothingToStdout', () => {
    const { stdout, lines } = logInChild(
      "logger.error({ event: 'tool_failed', err: new TypeError('the catalogue is gone') }, 'tool threw')",
    )
    expect(stdout).toBe('')
    expect(lines).toHaveLength(1)
    const [line] = lines
    expect(line).toMatchObject({ level: 50, msg: 'tool threw', event: 'tool_failed' })
    const err = line!.err as Record<string, unknown>
    expect(err.type).toBe('TypeError')
    expect(err.message).toBe('the catalogue is gone')
    expect(String(err.stack)).toContain('TypeError: the catalogue is gone')
  })

  it('dropsEverythingBelowWarn', () => {
    const { lines } = logInChild("logger.debug({}, 'd'); logger.info({}, 'i'); logger.warn({}, 'w')")
    expect(lines.map((line) => line.msg)).toEqual(['w'])
  })

  it('logsAtTheLevelTesseraLogLevelNamesAndIgnoresANameThatIsNoLevel', () => {
    const body = "logger.debug({}, 'd'); logger.info({}, 'i'); logger.warn({}, 'w')"
    expect(logInChild(body, { TESSERA_LOG_LEVEL: 'info' }).lines.map((l) => l.msg)).toEqual(['i', 'w'])
    expect(logInChild(body, { TESSERA_LOG_LEVEL: 'loud' }).lines.map((l) => l.msg)).toEqual(['w'])
  })

  it('loadsPinoOnlyWhenALineAtItsLevelIsWritten', () => {
    const loaded =
      "const { cache } = (await import('node:module')).createRequire(import.meta.url)\nconst pinoLoaded = () => Object.keys(cache).some((file) => file.includes('/node_modules/pino/'))\n"
    const { stdout, lines } = logInChild(
      `${loaded}const child = logger.child({ scope: 'c' }); logger.info({}, 'i'); child.debug({}, 'd'); process.stdout.write(String(pinoLoaded())); child.warn({}, 'w'); process.stdout.write(' ' + String(pinoLoaded()))`,
    )
    expect(stdout).toBe('false true')
    expect(lines).toMatchObject([{ msg: 'w', scope: 'c', level: 40 }])
  })

  it('redactsCredentialsUnderTheirUsualNamesAtTheTopAndOneLevelDown', () => {
    const { lines } = logInChild(
      "logger.warn({ event: 'x', authorization: 'Bearer top-secret', headers: { authorization: 'Bearer h-secret', dpop: 'proof-secret', accept: 'json' }, params: { requestState: 'tss1.state-secret', inputResponses: { ok: 1 }, name: 'deploy' } }, 'seen')",
    )
    const text = JSON.stringify(lines)
    for (const secret of ['top-secret', 'h-secret', 'proof-secret', 'state-secret'])
      expect(text).not.toContain(secret)
    expect(lines[0]).toMatchObject({
      authorization: '[redacted]',
      headers: { authorization: '[redacted]', dpop: '[redacted]', accept: 'json' },
      params: { requestState: '[redacted]', inputResponses: '[redacted]', name: 'deploy' },
    })
  })

  it('redactsTheValuesOfMcpParamHeadersWhicheverTheirCase', () => {
    const { lines } = logInChild(
      "logger.warn({ event: 'x', 'mcp-param-account': 'acct-secret', headers: { 'Mcp-Param-Region': 'region-secret', 'mcp-name': 'deploy' } }, 'seen')",
    )
    const text = JSON.stringify(lines)
    for (const secret of ['acct-secret', 'region-secret']) expect(text).not.toContain(secret)
    expect(lines[0]).toMatchObject({
      'mcp-param-account': '[redacted]',
      headers: { 'Mcp-Param-Region': '[redacted]', 'mcp-name': 'deploy' },
    })
  })
})
