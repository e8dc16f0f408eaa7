/**
 * @module dpop-nonce.test
 * Stateless nonces: the same secret gives the same nonces everywhere, and a nonce lasts its window
 * and the next.
 */
import { describe, expect, it } from 'vitest'
import { dpopNonces } from './dpop-nonce.ts'

const SECRET = new Uint8Array(32).fill(1)
const ROTATE = 60_000

describe('dpopNonces', () => {
  it('acceptsTheNonceItIssued', () => {
    const nonces = dpopNonces({ secret: SECRET })
    expect(nonces.current()).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(nonces.accepts(nonces.current())).toBe(true)
  })

  it('agreesAcrossWorkersSharingTheSecret', () => {
    const now = () => 10 * ROTATE
    const workerA = dpopNonces({ secret: SECRET, rotateMs: ROTATE, now })
    const workerB = dpopNonces({ secret: new Uint8Array(SECRET), rotateMs: ROTATE, now })
    expect(workerB.current()).toBe(workerA.current())
    expect(workerB.accepts(workerA.current())).toBe(true)
  })

  it('refusesANonceMadeWithAnotherSecret', () => {
    const now = () => 10 * ROTATE
    const other = dpopNonces({ secret: new Uint8Array(32).fill(2), rotateMs: ROTATE, now })
    expect(dpopNonces({ secret: SECRET, rotateMs: ROTATE, now }).accepts(other.current())).toBe(false)
  })

  it('drawsARandomSecretPerInstanceWhenNoneIsGiven', () => {
    const now = () => 10 * ROTATE
    const a = dpopNonces({ now })
    const b = dpopNonces({ now })
    expect(a.accepts(a.current())).toBe(true)
    expect(a.accepts(b.current())).toBe(false)
  })

  it('rotatesTheNonceEachWindow', () => {
    let now = 10 * ROTATE
    const nonces = dpopNonces({ secret: SECRET, rotateMs: ROTATE, now: () => now })
    const first = nonces.current()
    now += ROTATE - 1
    expect(nonces.current()).toBe(first)
    now += 1
    expect(nonces.current()).not.toBe(first)
  })

  it('acceptsThePreviousWindowsNonceButNotAnOlderOne', () => {
    let now = 10 * ROTATE
    const nonces = dpopNonces({ secret: SECRET, rotateMs: ROTATE, now: () => now })
    const issued = nonces.current()
    now += ROTATE
    expect(nonces.accepts(issued)).toBe(true)
    now += ROTATE
    expect(nonces.accepts(issued)).toBe(false)
  })

  it('refusesANonceFromAFutureWindow', () => {
    let now = 11 * ROTATE
    const nonces = dpopNonces({ secret: SECRET, rotateMs: ROTATE, now: () => now })
    const later = nonces.current()
    now = 10 * ROTATE
    expect(nonces.accepts(later)).toBe(false)
  })

  it('refusesSomethingThatIsNotANonce', () => {
    const nonces = dpopNonces({ secret: SECRET })
    expect(nonces.accepts('')).toBe(false)
    expect(nonces.accepts(nonces.current().slice(1))).toBe(false)
    expect(nonces.accepts(`${nonces.current()}x`)).toBe(false)
    // A JavaScript caller can pass anything.
    // @ts-expect-error: a number is no nonce
    expect(nonces.accepts(42)).toBe(false)
  })

  it('isUnaffectedByLaterChangesToTheSecretBuffer', () => {
    const secret = new Uint8Array(SECRET)
    const now = () => 10 * ROTATE
    const nonces = dpopNonces({ secret, now })
    const before = nonces.current()
    secret.fill(9)
    expect(nonces.current()).toBe(before)
  })

  it('refusesAShortSecretOrABadRotation', () => {
    expect(() => dpopNonces({ secret: new Uint8Array(16) })).toThrow(RangeError)
    expect(() => dpopNonces({ rotateMs: 0 })).toThrow(RangeError)
    expect(() => dpopNonces({ rotateMs: 1.5 })).toThrow(RangeError)
  })

  it('rotatesEveryFiveMinutesByDefault', () => {
    let now = 0
    const nonces = dpopNonces({ secret: SECRET, now: () => now })
    const first = nonces.current()
    now = 5 * 60_000 - 1
    expect(nonces.current()).toBe(first)
    now = 5 * 60_000
    expect(nonces.current()).not.toBe(first)
  })
})
