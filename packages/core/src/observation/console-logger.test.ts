import { afterEach, describe, expect, it, vi } from 'vitest'
import { consoleLogger } from './console-logger.ts'

const written: Array<[string, Record<string, unknown>]> = []
for (const method of ['debug', 'info', 'warn', 'error'] as const) {
  vi.spyOn(console, method).mockImplementation((line: string) => {
    written.push([method, JSON.parse(line) as Record<string, unknown>])
  })
}
afterEach(() => {
  written.length = 0
})

describe('console logger', () => {
  it('writesOneJsonLinePerEntryThroughTheConsoleMethodOfItsLevelFromWarnUp', () => {
    const logger = consoleLogger()
    logger.debug({ event: 'hidden' })
    logger.info({ event: 'hidden' })
    logger.warn({ event: 'request_state_refused', reason: 'mac' }, 'requestState refused')
    logger.error({ event: 'tool_failed' })
    expect(written.map(([method, line]) => [method, line.event, line.level, line.msg])).toEqual([
      ['warn', 'request_state_refused', 40, 'requestState refused'],
      ['error', 'tool_failed', 50, undefined],
    ])
    expect(typeof written[0]![1].time).toBe('number')
  })

  it('redactsCredentialsAndParamHeadersAtTheTopAndOneLevelDownAsThePinoDefaultDoes', () => {
    consoleLogger('debug').info({
      authorization: 'Bearer secret-1',
      requestState: 'tss1.secret-2',
      headers: { dpop: 'secret-3', 'Mcp-Param-Region': 'secret-4', accept: 'application/json' },
      params: { inputResponses: { confirm: 'secret-5' }, name: 'deploy' },
    })
    const [[, line]] = written as [[string, Record<string, unknown>]]
    expect(JSON.stringify(line)).not.toMatch(/secret-/)
    expect(line.headers).toEqual({
      dpop: '[redacted]',
      'Mcp-Param-Region': '[redacted]',
      accept: 'application/json',
    })
    expect(line.params).toEqual({ inputResponses: '[redacted]', name: 'deploy' })
  })

  it('writesAnErrorWithItsTypeMessageAndStackAndSurvivesAFieldItCannotWrite', () => {
    const logger = consoleLogger()
    logger.error({ err: new RangeError('out of range') }, 'failed')
    const cyclic: Record<string, unknown> = {}
    cyclic.self = cyclic
    logger.error({ cyclic }, 'still written')
    expect(written[0]![1].err).toMatchObject({ type: 'RangeError', message: 'out of range' })
    expect(String((written[0]![1].err as { stack: string }).stack)).toContain('console-logger.test')
    expect(written[1]![1]).toMatchObject({ msg: 'still written', unserializable: true })
  })

  it('refusesALevelItDoesNotKnow', () => {
    expect(() => consoleLogger('trace' as 'debug')).toThrow(
      'level must be debug, info, warn or error, not trace',
    )
  })
})
