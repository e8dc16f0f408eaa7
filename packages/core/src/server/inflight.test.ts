/**
 * @module inflight.test
 * The registry of requests running in this process: a cancel finds the request by scope and by
 * typed JSON-RPC id (7 and "7" are two requests), a second request with the same id replaces the
 * first, and a request that is done, or already cancelled, is found no more. A request's signal is
 * made when first read, and a cancel that came before that read still shows in it.
 */
import { describe, expect, it } from 'vitest'
import { InflightRequests } from './inflight.ts'

describe('InflightRequests', () => {
  it('abortsTheRequestACancelNames', () => {
    const inflight = new InflightRequests()
    const flight = inflight.start('session-a', 1)
    expect(flight.signal.aborted).toBe(false)
    expect(inflight.cancel('session-a', 1, [])).toBe(true)
    expect(flight.signal.aborted).toBe(true)
    expect((flight.signal.reason as Error).message).toBe('cancelled by the client')
  })

  it('showsACancelThatCameBeforeTheSignalWasRead', () => {
    const inflight = new InflightRequests()
    const flight = inflight.start('session-a', 1)
    expect(inflight.cancel('session-a', 1, [])).toBe(true)
    expect(flight.aborted).toBe(true)
    expect(flight.signal.aborted).toBe(true)
    expect((flight.signal.reason as Error).message).toBe('cancelled by the client')
  })

  it('givesTheSameSignalOnEveryReadAndAbortsItOnACancel', () => {
    const inflight = new InflightRequests()
    const flight = inflight.start('session-a', 1)
    const signal = flight.signal
    let aborts = 0
    signal.addEventListener('abort', () => aborts++)
    expect(flight.signal).toBe(signal)
    expect(flight.aborted).toBe(false)
    inflight.cancel('session-a', 1, [])
    expect(aborts).toBe(1)
    expect(flight.aborted).toBe(true)
  })

  it('keepsANumberIdAndTheSameDigitsAsAStringApart', () => {
    const inflight = new InflightRequests()
    const number = inflight.start('s', 7)
    const string = inflight.start('s', '7')
    expect(inflight.cancel('s', '7', [])).toBe(true)
    expect(string.signal.aborted).toBe(true)
    expect(number.signal.aborted).toBe(false)
    expect(inflight.cancel('s', 7, [])).toBe(true)
    expect(number.signal.aborted).toBe(true)
  })

  it('keepsTheSameIdInTwoScopesApart', () => {
    const inflight = new InflightRequests()
    const a = inflight.start('session-a', 'x')
    const b = inflight.start('session-b', 'x')
    expect(inflight.cancel('session-b', 'x', [])).toBe(true)
    expect(b.signal.aborted).toBe(true)
    expect(a.signal.aborted).toBe(false)
  })

  it('findsNothingToCancelForAnIdThatNeverRan', () => {
    const inflight = new InflightRequests()
    inflight.start('s', 1)
    expect(inflight.cancel('s', 2, [])).toBe(false)
    expect(inflight.cancel('t', 1, [])).toBe(false)
  })

  it('findsNothingToCancelAfterTheRequestIsDone', () => {
    const inflight = new InflightRequests()
    const flight = inflight.start('s', 1)
    flight.done()
    expect(inflight.cancel('s', 1, [])).toBe(false)
    expect(flight.signal.aborted).toBe(false)
  })

  it('cancelsARequestOnlyOnce', () => {
    const inflight = new InflightRequests()
    const flight = inflight.start('s', 1)
    expect(inflight.cancel('s', 1, [])).toBe(true)
    expect(inflight.cancel('s', 1, [])).toBe(false)
    expect(flight.signal.aborted).toBe(true)
  })

  it('letsASecondRequestWithTheSameIdReplaceTheFirst', () => {
    const inflight = new InflightRequests()
    const first = inflight.start('s', 1)
    const second = inflight.start('s', 1)
    expect(inflight.cancel('s', 1, [])).toBe(true)
    expect(second.signal.aborted).toBe(true)
    expect(first.signal.aborted).toBe(false)
  })

  it('keepsTheReplacementCancellableWhenTheReplacedRequestFinishes', () => {
    const inflight = new InflightRequests()
    const first = inflight.start('s', 1)
    const second = inflight.start('s', 1)
    first.done()
    expect(inflight.cancel('s', 1, [])).toBe(true)
    expect(second.signal.aborted).toBe(true)
  })

  it('startsAFreshRequestForAnIdThatWasCancelledBefore', () => {
    const inflight = new InflightRequests()
    inflight.start('s', 1)
    inflight.cancel('s', 1, [])
    const again = inflight.start('s', 1)
    expect(again.signal.aborted).toBe(false)
    expect(inflight.cancel('s', 1, [])).toBe(true)
    expect(again.signal.aborted).toBe(true)
  })

  it('stopsARequestOnlyForACancellerHoldingEveryScopeOfItsTarget', () => {
    const inflight = new InflightRequests()
    const request = inflight.start('s', 1, ['ops:read', 'ops:rollback'])
    expect(inflight.cancel('s', 1, ['ops:read'])).toBe(true)
    expect(inflight.cancel('s', 1, undefined)).toBe(true)
    expect(request.signal.aborted).toBe(false)
    expect(inflight.cancel('s', 1, ['ops:rollback', 'ops:read', 'audit'])).toBe(true)
    expect(request.signal.aborted).toBe(true)
  })
})
