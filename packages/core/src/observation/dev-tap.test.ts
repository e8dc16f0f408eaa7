import { subscribe, unsubscribe } from 'node:diagnostics_channel'
import { afterEach, describe, expect, it } from 'vitest'
import {
  currentDevRequest,
  DEV_CHANNEL,
  type DevEvent,
  devTapOn,
  publishDev,
  recordName,
  tapRequest,
} from './dev-tap.ts'

const seen: DevEvent[] = []
const listener = (message: unknown) => seen.push(structuredClone(message as DevEvent))
afterEach(() => {
  unsubscribe(DEV_CHANNEL, listener)
  seen.length = 0
})

describe('dev tap', () => {
  it('isOffAndPublishesNothingWhileNobodySubscribes', () => {
    expect(devTapOn()).toBe(false)
    publishDev({ type: 'listen-stream', request: undefined, open: true })
    expect(tapRequest('POST', '/mcp', () => currentDevRequest())).toBeUndefined()
    expect(seen).toEqual([])
  })

  it('givesEveryStepOfARequestItsRecordAcrossAwaits', async () => {
    subscribe(DEV_CHANNEL, listener)
    expect(devTapOn()).toBe(true)
    const id = await tapRequest('POST', '/mcp', async (request) => {
      await new Promise((resolve) => setTimeout(resolve, 5))
      currentDevRequest()!.method = 'tools/call'
      publishDev({ type: 'listen-stream', request: currentDevRequest()?.id, open: true })
      return request.id
    })
    expect(seen).toEqual([
      { type: 'request', request: expect.objectContaining({ id, httpMethod: 'POST', path: '/mcp' }) },
      { type: 'listen-stream', request: id, open: true },
    ])
    expect(currentDevRequest()).toBeUndefined()
  })

  it('namesARecordByADigestThatNeverHoldsTheNonce', () => {
    const nonce = 'AAAAAAAAAAAAAAAAAAAAAA'
    expect(recordName(nonce)).toBe(recordName(nonce))
    expect(recordName(nonce)).toMatch(/^[A-Za-z0-9_-]{12}$/)
    expect(recordName(nonce)).not.toContain(nonce.slice(0, 6))
    expect(recordName(nonce)).not.toBe(recordName('BAAAAAAAAAAAAAAAAAAAAA'))
  })
})
