import { subscribe, unsubscribe } from 'node:diagnostics_channel'
import { afterEach, describe, expect, it } from 'vitest'
import { DEV_CHANNEL, type DevEvent, devSubscriber, recordName, sessionName } from './dev-tap.ts'
import { Observer } from './observer.ts'

const seen: DevEvent[] = []
const listener = (message: unknown) => seen.push(structuredClone(message as DevEvent))
afterEach(() => {
  unsubscribe(DEV_CHANNEL, listener)
  seen.length = 0
})

const observer = new Observer([devSubscriber])

describe('dev tap', () => {
  it('wantsNothingAndPublishesNothingWhileNobodySubscribes', () => {
    expect(observer.wants('exchange')).toBe(false)
    expect(observer.wants('state-refused')).toBe(false)
    observer.announce({ step: 'state-refused', reason: 'mac', method: 'tools/call' })
    expect(observer.exchange('POST', '/mcp', (watch) => watch)).toBeUndefined()
    expect(seen).toEqual([])
  })

  it('givesEveryStepOfAnExchangeItsRecordAcrossAwaits', async () => {
    subscribe(DEV_CHANNEL, listener)
    expect(observer.wants('exchange')).toBe(true)
    await observer.exchange('POST', '/mcp', async (watch) => {
      await new Promise((resolve) => setTimeout(resolve, 5))
      observer.announce({
        step: 'routed',
        era: 'modern',
        method: 'tools/call',
        target: 'deploy',
        subject: 'ana',
      })
      observer.announce({ step: 'state-refused', reason: 'binding', method: 'tools/call' })
      observer.announce({ step: 'error-sent', code: -32602, message: 'Invalid params.' })
      watch!.ended(200)
    })
    const [started, refused, ended] = seen
    expect(started).toMatchObject({ type: 'request', request: { httpMethod: 'POST', path: '/mcp' } })
    const id = (started as Extract<DevEvent, { type: 'request' }>).request.id
    expect(refused).toEqual({ type: 'state-refused', request: id, reason: 'binding', method: 'tools/call' })
    expect(ended).toMatchObject({
      type: 'request-end',
      request: {
        id,
        era: 'modern',
        method: 'tools/call',
        target: 'deploy',
        subject: 'ana',
        status: 200,
        error: { code: -32602, message: 'Invalid params.' },
      },
    })
    expect(seen).toHaveLength(3)
  })

  it('tiesAListenStreamsClosingToTheRequestThatOpenedIt', async () => {
    subscribe(DEV_CHANNEL, listener)
    const stream = {}
    await observer.exchange('POST', '/mcp', async () => {
      observer.announce({ step: 'listen-stream', subscriptionId: 1, stream, open: true })
    })
    // Closing happens outside any request, when the client leaves.
    observer.announce({ step: 'listen-stream', subscriptionId: 1, stream, open: false })
    const id = (seen[0] as Extract<DevEvent, { type: 'request' }>).request.id
    expect(seen.slice(1)).toEqual([
      { type: 'listen-stream', request: id, open: true },
      { type: 'listen-stream', request: id, open: false },
    ])
  })

  it('namesSessionsAndRecordsByDigestsNeverByTheirSecrets', () => {
    subscribe(DEV_CHANNEL, listener)
    observer.announce({ step: 'session', sessionId: 'session-secret', open: true })
    observer.announce({
      step: 'single-use',
      nonce: 'nonce-secret',
      what: 'rollback',
      status: 'executed',
      outcome: 'done',
    })
    expect(seen).toEqual([
      { type: 'session', request: undefined, session: sessionName('session-secret'), open: true },
      {
        type: 'single-use',
        request: undefined,
        record: recordName('nonce-secret'),
        what: 'rollback',
        status: 'executed',
        outcome: 'done',
      },
    ])
    expect(JSON.stringify(seen)).not.toContain('secret')
  })

  it('namesARecordByADigestThatNeverHoldsTheNonce', () => {
    const nonce = 'AAAAAAAAAAAAAAAAAAAAAA'
    expect(recordName(nonce)).toBe(recordName(nonce))
    expect(recordName(nonce)).toMatch(/^[A-Za-z0-9_-]{12}$/)
    expect(recordName(nonce)).not.toContain(nonce.slice(0, 6))
    expect(recordName(nonce)).not.toBe(recordName('BAAAAAAAAAAAAAAAAAAAAA'))
  })
})
