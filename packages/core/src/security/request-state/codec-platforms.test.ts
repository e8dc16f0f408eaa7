/**
 * @module codec-platforms.test
 * Node's `node:crypto` and the web's WebCrypto write the same requestStates: a state minted by one
 * opens with the other under the same keys and binding, and one changed by a byte is refused by both.
 */
import { describe, expect, it } from 'vitest'
import type { PlatformCrypto } from '../crypto.ts'
import * as nodeCrypto from '../crypto-node.ts'
import * as webCrypto from '../crypto-web.ts'
import { createCodecOn, type StateMode } from './codec.ts'
import type { StateKey } from './key-ring.ts'
import { flipByte } from './token-edits.fixture.ts'

const keyA: StateKey = { id: 'key-a', secret: 'a'.repeat(32) }
const keyB: StateKey = { id: 'key-b', secret: new Uint8Array(32).fill(0xb) }
const BINDING = 'binding-of-the-originating-call'
const T0 = 1_800_000_000_000
const MODES: StateMode[] = ['sealed', 'signed']

describe('requestState codec across platforms', () => {
  const PLATFORMS = [
    ['Node', nodeCrypto],
    ['the web', webCrypto],
  ] as const satisfies readonly (readonly [string, PlatformCrypto])[]
  // UTF-16LE of the binding feeds the binding tag: non-ASCII text and a lone surrogate must agree too.
  const BINDINGS = [BINDING, 'ünïcødé ✓ \u{1F600} lone \uD800 surrogate']
  const PAYLOAD = { step: 2, answers: ['x', 'é ✓'], nested: { n: null } }

  function codecOn(crypto: PlatformCrypto, mode: StateMode) {
    return createCodecOn(crypto, { keys: [keyA, keyB], mode, clock: () => T0 })
  }

  describe.each(MODES)('%s', (mode) => {
    it('aStateMintedOnNodeOpensOnTheWebAndBack', async () => {
      for (const [minter, minting] of PLATFORMS) {
        for (const [opener, opening] of PLATFORMS) {
          if (minting === opening) continue
          for (const binding of BINDINGS) {
            const token = await codecOn(minting, mode).mint(PAYLOAD, binding)
            const opened = await codecOn(opening, mode).open(token, binding)
            expect(opened, `minted on ${minter}, opened on ${opener}`).toEqual({
              ok: true,
              payload: PAYLOAD,
              keyId: 'key-a',
              issuedAt: T0,
              expiresAt: T0 + 600_000,
              nonce: expect.stringMatching(/^[A-Za-z0-9_-]{22}$/),
            })
            expect(await codecOn(opening, mode).open(token, `${binding}x`)).toEqual({
              ok: false,
              reason: 'binding',
            })
          }
        }
      }
    })

    it('aTokenChangedByOneByteIsRefusedAsAForgeryOnBoth', async () => {
      const parts = mode === 'sealed' ? [2] : [2, 3]
      for (const [minter, minting] of PLATFORMS) {
        const token = await codecOn(minting, mode).mint(PAYLOAD, BINDING)
        for (const part of parts) {
          for (const byte of [0, 12, -1]) {
            const changed = flipByte(token, part, byte)
            for (const [opener, opening] of PLATFORMS) {
              expect(
                await codecOn(opening, mode).open(changed, BINDING),
                `minted on ${minter}, part ${part} byte ${byte} changed, opened on ${opener}`,
              ).toEqual({ ok: false, reason: 'mac' })
            }
          }
        }
      }
    })
  })
})
