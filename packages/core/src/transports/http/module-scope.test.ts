/**
 * @module module-scope.test
 * What a Worker allows at its module scope, where a server is built once per isolate: making the
 * server, registering a tool and making its fetch handler draw no random value and start no
 * timer (Workers refuse both there); the first call that seals a state draws its key then.
 */
import * as nodeCrypto from 'node:crypto'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { requestParts } from '../../../../../test/helpers/mcp-http.ts'
import { silentLogger } from '../../../../../test/helpers/silent-logger.ts'
import { createServer } from '../../server/create-server.ts'
import { elicitForm } from '../../server/mrtr/input-requests.ts'
import { createFetchHandler } from './fetch.ts'

vi.mock('node:crypto', async (original) => {
  const actual = await original<typeof nodeCrypto>()
  return {
    ...actual,
    randomBytes: vi.fn(actual.randomBytes),
    randomFillSync: vi.fn(actual.randomFillSync),
    randomUUID: vi.fn(actual.randomUUID),
  }
})

function randomDraws(): number {
  const drawn = [nodeCrypto.randomBytes, nodeCrypto.randomFillSync, nodeCrypto.randomUUID]
  return drawn.reduce((sum, fn) => sum + vi.mocked(fn).mock.calls.length, 0)
}

afterEach(() => {
  vi.restoreAllMocks()
})

describe('module scope', () => {
  it('drawsNoRandomValueAndStartsNoTimerUntilARequestNeedsOne', async () => {
    const getRandomValues = vi.spyOn(globalThis.crypto, 'getRandomValues')
    const setTimeoutSpy = vi.spyOn(globalThis, 'setTimeout')
    const setIntervalSpy = vi.spyOn(globalThis, 'setInterval')
    const before = randomDraws()

    const app = createServer({ name: 'worker', version: '1.0.0', logger: silentLogger })
    const ask = elicitForm({ message: 'Sure?', requestedSchema: { type: 'object', properties: {} } })
    app.tool('confirm', { description: 'Asks first' }, async (_args, ctx) => {
      const answer = await ctx.ask('sure', ask)
      return answer.action
    })
    const handler = createFetchHandler(app)

    expect(randomDraws() - before).toBe(0)
    expect(getRandomValues).not.toHaveBeenCalled()
    expect(setTimeoutSpy).not.toHaveBeenCalled()
    expect(setIntervalSpy).not.toHaveBeenCalled()

    const call = requestParts('tools/call', { name: 'confirm', arguments: {} }, { id: 1 })
    const response = await handler(
      new Request('http://127.0.0.1/mcp', { method: 'POST', headers: call.headers, body: call.body }),
    )
    const reply = (await response.json()) as { result: { resultType: string; requestState: string } }
    expect(reply.result.resultType).toBe('input_required')
    expect(randomDraws() - before + getRandomValues.mock.calls.length).toBeGreaterThan(0)
  })
})
