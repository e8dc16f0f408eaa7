/**
 * @module notification-bus.test
 * The relay's wire message: what `send` gets is numbered, and the number it is given is the one
 * the payload carries, higher with every call (a bus that keeps order across calls relies on it).
 */
import { describe, expect, it } from 'vitest'
import { createBusRelay } from './notification-bus.ts'

describe('createBusRelay', () => {
  it('givesSendTheNumberThePayloadCarriesHigherEachTime', () => {
    const sent: [number, number][] = []
    const relay = createBusRelay({
      send: (payload, seq) => sent.push([(JSON.parse(payload) as { seq: number }).seq, seq]),
    })
    relay.publish({ type: 'tools/list_changed' })
    relay.publish({ type: 'resources/updated', uri: 'file:///a' })
    relay.publish({ type: 'shutdown' })
    relay.publish({ type: 'prompts/list_changed' })
    expect(sent).toEqual([
      [0, 0],
      [1, 1],
      [2, 2],
    ])
  })
})
