/**
 * @module durable-object-bus.test
 * What an isolate tells the object with each call: one turn's events in one call, numbered in the
 * order they were published, and the lowest number it still has in flight, so the object knows
 * which earlier calls may yet come.
 */
import { describe, expect, it } from 'vitest'
import { durableObjectBus } from './durable-object-bus.ts'
import type { StubOf } from './object-stub.ts'

interface Call {
  seqs: number[]
  inFlightFrom: number | undefined
  answer(): void
}

/** A stub whose calls wait until the test answers them. */
function recordingStub(): { stub: StubOf; calls: Call[] } {
  const calls: Call[] = []
  const stub = {
    publish(messages: string[], inFlightFrom?: number) {
      return new Promise<void>((resolve) => {
        const seqs = messages.map((message) => (JSON.parse(message) as { seq: number }).seq)
        calls.push({ seqs, inFlightFrom, answer: resolve })
      })
    },
  }
  return { stub: (() => stub) as StubOf, calls }
}

const turn = () => new Promise<void>((resolve) => setTimeout(resolve, 0))
const changed = { type: 'tools/list_changed' } as const

describe('durableObjectBus', () => {
  it('saysWithEachCallTheLowestNumberStillInFlight', async () => {
    const { stub, calls } = recordingStub()
    const bus = durableObjectBus(stub)
    bus.publish(changed)
    bus.publish(changed)
    await turn()
    bus.publish(changed)
    await turn()
    expect(calls.map(({ seqs, inFlightFrom }) => [seqs, inFlightFrom])).toEqual([
      [[0, 1], 0],
      [[2], 0],
    ])
    calls[0]!.answer()
    await turn()
    bus.publish(changed)
    await turn()
    expect(calls[2]).toMatchObject({ seqs: [3], inFlightFrom: 2 })
    calls[1]!.answer()
    calls[2]!.answer()
    await turn()
    bus.publish(changed)
    await turn()
    expect(calls[3]).toMatchObject({ seqs: [4], inFlightFrom: 4 })
    calls[3]!.answer()
    await bus.settled()
  })

  it('aCallThatFailedIsNoLongerInFlight', async () => {
    const errors: string[] = []
    const calls: number[] = []
    let fail = true
    const stub = {
      publish(_messages: string[], inFlightFrom?: number) {
        calls.push(inFlightFrom ?? -1)
        return fail ? Promise.reject(new Error('the object restarted')) : Promise.resolve()
      },
    }
    const bus = durableObjectBus((() => stub) as StubOf, (error) => errors.push(error.message))
    bus.publish(changed)
    await bus.settled()
    fail = false
    bus.publish(changed)
    await bus.settled()
    expect(calls).toEqual([0, 1])
    expect(errors).toEqual(['the object restarted'])
  })
})
