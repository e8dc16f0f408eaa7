/**
 * @module trusted-proxies-unloaded.test
 * A process where ipaddr.js cannot be loaded (a bundle that left it out): `trustProxy` ranges
 * fail with that error, not as ranges that are not addresses.
 */
import { describe, expect, it, vi } from 'vitest'
import { trustedProxies } from './trusted-proxies.ts'

vi.mock('#ip-address', () => ({
  ipAddresses: () => {
    throw new Error("Cannot find module 'ipaddr.js'")
  },
}))

describe('trustedProxies without ipaddr.js', () => {
  it('failsWithTheLoadErrorRatherThanCallingTheRangeBad', () => {
    expect(() => trustedProxies(['10.0.0.0/8'])).toThrow("Cannot find module 'ipaddr.js'")
  })

  it('stillTakesAHopCountWhichNeedsNoAddresses', () => {
    expect(trustedProxies(2)).toEqual({ kind: 'hops', count: 2 })
  })
})
