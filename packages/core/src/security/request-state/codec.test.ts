import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { encodeBase64url } from '#crypto'
import { unchecked } from '../../../../../test/helpers/unchecked.ts'
import { createRequestStateCodec, type RequestStateCodecOptions, type StateMode } from './codec.ts'
import type { StateKey } from './key-ring.ts'
import { flipByte } from './token-edits.fixture.ts'

const keyA: StateKey = { id: 'key-a', secret: 'a'.repeat(32) }
const keyB: StateKey = { id: 'key-b', secret: new Uint8Array(32).fill(0xb) }
const BINDING = 'binding-of-the-originating-call'
const T0 = 1_800_000_000_000
const MODES: StateMode[] = ['sealed', 'signed']

function setup(options: Partial<RequestStateCodecOptions> = {}) {
  const clock = { now: T0 }
  const codec = createRequestStateCodec({ keys: [keyA], clock: () => clock.now, ...options })
  return { clock, codec }
}

/** Another spelling of the same bytes: sets a spare low bit of the last symbol. */
function respell(part: string): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'
  const last = alphabet.indexOf(part.at(-1)!)
  return part.slice(0, -1) + alphabet[last + 1]
}

describe.each(MODES)('requestState codec (%s)', (mode) => {
  it('opensTheStateItMinted', async () => {
    const { codec } = setup({ mode })
    const token = await codec.mint({ step: 2, answers: ['x'] }, BINDING)
    const opened = await codec.open<{ step: number }>(token, BINDING)
    expect(opened).toEqual({
      ok: true,
      payload: { step: 2, answers: ['x'] },
      keyId: 'key-a',
      issuedAt: T0,
      expiresAt: T0 + 600_000,
      nonce: expect.stringMatching(/^[A-Za-z0-9_-]{22}$/),
    })
    expect(codec.mode).toBe(mode)
    expect(codec.ttlSeconds).toBe(600)
  })

  it('carriesAnyJsonPayload', async () => {
    const { codec } = setup({ mode })
    for (const payload of [null, 0, 'text', false, [], {}, { nested: { deep: [1, 'é', null] } }]) {
      const opened = await codec.open(await codec.mint(payload, BINDING), BINDING)
      expect(opened.ok && opened.payload).toEqual(payload)
    }
  })

  it('drawsAFreshNonceForEveryMint', async () => {
    const { codec } = setup({ mode })
    const nonces = new Set<string>()
    for (let i = 0; i < 50; i++) {
      const opened = await codec.open(await codec.mint(1, BINDING), BINDING)
      if (opened.ok) nonces.add(opened.nonce)
    }
    expect(nonces.size).toBe(50)
  })

  it('usesItsModePrefixAndKeyIdOnTheWire', async () => {
    const { codec } = setup({ mode })
    const token = await codec.mint(1, BINDING)
    expect(token).toMatch(
      mode === 'sealed' ? /^tss1\.key-a\.[A-Za-z0-9_-]+$/ : /^tsh1\.key-a\.[\w-]+\.[\w-]{43}$/,
    )
  })

  it('rejectsAFlippedByte', async () => {
    const { codec } = setup({ mode })
    const token = await codec.mint({ amount: 100 }, BINDING)
    const parts = mode === 'sealed' ? [2] : [2, 3]
    for (const part of parts) {
      for (const byte of [0, 1, 5, 11, 12, 13, 20, -17, -16, -2, -1]) {
        expect(await codec.open(flipByte(token, part, byte), BINDING), `part ${part} byte ${byte}`).toEqual({
          ok: false,
          reason: 'mac',
        })
      }
    }
  })

  it('rejectsAnAlteredHeader', async () => {
    const { codec } = setup({ mode })
    const token = await codec.mint(1, BINDING)
    expect(await codec.open(`x${token.slice(1)}`, BINDING)).toEqual({ ok: false, reason: 'malformed' })
    expect(await codec.open(token.replace('1.', '2.'), BINDING)).toEqual({ ok: false, reason: 'malformed' })
    expect(await codec.open(token.replace('key-a', 'key-x'), BINDING)).toEqual({
      ok: false,
      reason: 'unknown-key',
    })
    expect(await codec.open(token.replace('key-a', 'key a'), BINDING)).toEqual({
      ok: false,
      reason: 'malformed',
    })
  })

  it('rejectsATokenMovedToAnotherKeySlot', async () => {
    // Both ids hold the same secret: only the key id inside the AAD/MAC tells them apart.
    const same = { secret: keyA.secret }
    const { codec } = setup({
      mode,
      keys: [
        { id: 'slot1', ...same },
        { id: 'slot2', ...same },
      ],
    })
    const token = await codec.mint(1, BINDING)
    expect(await codec.open(token.replace('slot1', 'slot2'), BINDING)).toEqual({ ok: false, reason: 'mac' })
  })

  it('rejectsAnExpiredState', async () => {
    const { clock, codec } = setup({ mode, ttlSeconds: 60 })
    const token = await codec.mint(1, BINDING)
    clock.now = T0 + 60_000 - 1
    expect((await codec.open(token, BINDING)).ok).toBe(true)
    clock.now = T0 + 60_000
    expect(await codec.open(token, BINDING)).toEqual({ ok: false, reason: 'expired' })
    clock.now = T0 + 86_400_000
    expect(await codec.open(token, BINDING)).toEqual({ ok: false, reason: 'expired' })
  })

  it('rejectsAStateIssuedBeyondTheClockSkew', async () => {
    const { clock, codec } = setup({ mode })
    clock.now = T0 + 60_000
    const withinSkew = await codec.mint(1, BINDING)
    clock.now = T0 + 60_001
    const beyondSkew = await codec.mint(1, BINDING)
    clock.now = T0
    expect((await codec.open(withinSkew, BINDING)).ok).toBe(true)
    expect(await codec.open(beyondSkew, BINDING)).toEqual({ ok: false, reason: 'not-yet-valid' })
  })

  it('rejectsAStateFromAKeyNoLongerInTheRing', async () => {
    const token = await setup({ mode, keys: [keyA] }).codec.mint(1, BINDING)
    expect(await setup({ mode, keys: [keyB] }).codec.open(token, BINDING)).toEqual({
      ok: false,
      reason: 'unknown-key',
    })
  })

  it('opensAStateMintedUnderThePreviousKeyWhileItIsInTheRing', async () => {
    const token = await setup({ mode, keys: [keyA] }).codec.mint({ v: 1 }, BINDING)
    const rotated = setup({ mode, keys: [keyB, keyA] }).codec
    expect(await rotated.open(token, BINDING)).toMatchObject({ ok: true, keyId: 'key-a', payload: { v: 1 } })
    expect(await rotated.open(await rotated.mint(1, BINDING), BINDING)).toMatchObject({
      ok: true,
      keyId: 'key-b',
    })
  })

  it('opensAStateOnTheCodecThatMintedItAsAnyOtherCodecWould', async () => {
    // The minting codec knows its own tokens and skips the decryption; another codec with the
    // same key decrypts: the answers and the refusals must be the same.
    const { clock, codec } = setup({ mode, ttlSeconds: 60 })
    const other = setup({ mode, ttlSeconds: 60 }).codec
    const mint = () => codec.mint({ step: 2, answers: [{ note: 'é\u2028"' }] }, BINDING)
    const token = await mint()
    expect(await codec.open(token, BINDING)).toEqual(await other.open(token, BINDING))
    expect(await codec.open(await mint(), `${BINDING}x`)).toEqual({ ok: false, reason: 'binding' })
    const edited = await mint()
    const at = edited.length - 30
    const swapped = `${edited.slice(0, at)}${edited[at] === 'A' ? 'B' : 'A'}${edited.slice(at + 1)}`
    expect(await codec.open(swapped, BINDING)).toEqual({ ok: false, reason: 'mac' })
    const late = await mint()
    clock.now = T0 + 60_000
    expect(await codec.open(late, BINDING)).toEqual({ ok: false, reason: 'expired' })
  })

  it('rejectsAStateUnderAnotherBinding', async () => {
    const { codec } = setup({ mode })
    const token = await codec.mint(1, BINDING)
    for (const other of ['', `${BINDING}x`, BINDING.slice(1), 'binding-of-another-call']) {
      expect(await codec.open(token, other)).toEqual({ ok: false, reason: 'binding' })
    }
  })

  it('neverPutsTheBindingOnTheWire', async () => {
    const { codec } = setup({ mode })
    const binding = 'BINDING-MARKER-7f3a'
    const token = await codec.mint(1, binding)
    const decoded = token
      .split('.')
      .slice(2)
      .map((part) => Buffer.from(part, 'base64url').toString('latin1'))
    expect([token, ...decoded].some((text) => text.includes(binding))).toBe(false)
  })

  it('rejectsASecondBase64urlSpellingOfTheSameBytes', async () => {
    const { codec } = setup({ mode })
    let token = ''
    // Grow the payload until the last part has spare bits (its length is not a multiple of 4).
    for (let size = 0; token === '' || token.split('.').at(-1)!.length % 4 === 0; size++) {
      token = await codec.mint('x'.repeat(size), BINDING)
    }
    const parts = token.split('.')
    const last = parts.length - 1
    const respelled = [...parts.slice(0, last), respell(parts[last]!)].join('.')
    expect(Buffer.from(respelled.split('.')[last]!, 'base64url')).toEqual(
      Buffer.from(parts[last]!, 'base64url'),
    )
    expect(await codec.open(respelled, BINDING)).toEqual({ ok: false, reason: 'malformed' })
    for (const variant of [
      `${token}=`,
      `${token}==`,
      token.replace(/-/g, '+').replace(/_/g, '/'),
      `${token} `,
    ]) {
      if (variant !== token)
        expect(await codec.open(variant, BINDING)).toEqual({ ok: false, reason: 'malformed' })
    }
    expect(await codec.open(`${token.slice(0, 20)}\n${token.slice(20)}`, BINDING)).toEqual({
      ok: false,
      reason: 'malformed',
    })
  })

  it('rejectsATokenLongerThanTheLimit', async () => {
    const token = await setup({ mode }).codec.mint('x'.repeat(100), BINDING)
    const strict = setup({ mode, maxTokenLength: token.length - 1 }).codec
    expect(await strict.open(token, BINDING)).toEqual({ ok: false, reason: 'malformed' })
    expect((await setup({ mode, maxTokenLength: token.length }).codec.open(token, BINDING)).ok).toBe(true)
    await expect(strict.mint('x'.repeat(100), BINDING)).rejects.toThrow(RangeError)
  })

  it('rejectsGarbage', async () => {
    const { codec } = setup({ mode })
    const prefix = (await codec.mint(1, BINDING)).slice(0, 5)
    const garbage = [
      '',
      '.',
      '..',
      'hello world',
      'x'.repeat(1_000_000),
      prefix,
      `${prefix}.`,
      `${prefix}key-a`,
      `${prefix}key-a.`,
      `${prefix}key-a..`,
      `${prefix}key-a.AAAA`,
      `${prefix}key-a.AAAA.AAAA`,
      `${prefix}${'k'.repeat(33)}.AAAA`,
      `${prefix}key-a.${'é'.repeat(40)}`,
      `${prefix}key-a.\u0000`,
      JSON.stringify({ iat: 0 }),
    ]
    for (const token of garbage) {
      expect(await codec.open(token, BINDING), token.slice(0, 40)).toEqual({ ok: false, reason: 'malformed' })
    }
    for (const token of [undefined, null, 42, {}, ['tss1.key-a.AAAA']]) {
      expect(await codec.open(unchecked(token), BINDING)).toEqual({ ok: false, reason: 'malformed' })
    }
  })

  it('rejectsRandomBytesUnderAKnownKeyAsAForgery', async () => {
    const { codec } = setup({ mode })
    const header = (await codec.mint(1, BINDING)).split('.').slice(0, 2).join('.')
    const random = () => encodeBase64url(Buffer.from(Array.from({ length: 80 }, (_, i) => (i * 37) & 0xff)))
    const forged = mode === 'sealed' ? `${header}.${random()}` : `${header}.${random()}.${'A'.repeat(42)}A`
    expect(await codec.open(forged, BINDING)).toEqual({ ok: false, reason: 'mac' })
  })

  it('neverThrowsOnArbitraryOrMutatedTokens', async () => {
    const { codec } = setup({ mode })
    const token = await codec.mint({ a: 1 }, BINDING)
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: 300 }), async (text) => {
        expect((await codec.open(text, BINDING)).ok).toBe(false)
      }),
    )
    await fc.assert(
      fc.asyncProperty(
        fc.nat(token.length - 1),
        fc.string({ minLength: 1, maxLength: 2 }),
        async (at, text) => {
          const mutated = token.slice(0, at) + text + token.slice(at + 1)
          fc.pre(mutated !== token)
          expect((await codec.open(mutated, BINDING)).ok).toBe(false)
        },
      ),
    )
  })

  it('refusesMisuseAtMintAndOpen', async () => {
    const { codec } = setup({ mode })
    await expect(codec.mint(undefined, BINDING)).rejects.toThrow(TypeError)
    await expect(codec.mint(() => 1, BINDING)).rejects.toThrow(TypeError)
    await expect(codec.mint(1n, BINDING)).rejects.toThrow(TypeError)
    await expect(codec.mint(1, unchecked(undefined))).rejects.toThrow(TypeError)
    await expect(codec.open('x', unchecked(undefined))).rejects.toThrow(TypeError)
  })
})

describe('requestState codec modes', () => {
  it('signedModeLeavesThePayloadReadableYetRefusesTampering', async () => {
    const { codec } = setup({ mode: 'signed' })
    const token = await codec.mint({ cart: 'blue-shoes' }, BINDING)
    const parts = token.split('.')
    const claims = JSON.parse(Buffer.from(parts[2]!, 'base64url').toString('utf8'))
    expect(claims).toMatchObject({ iat: T0, exp: T0 + 600_000, payload: { cart: 'blue-shoes' } })
    claims.payload.cart = 'gold-shoes'
    parts[2] = encodeBase64url(Buffer.from(JSON.stringify(claims)))
    expect(await codec.open(parts.join('.'), BINDING)).toEqual({ ok: false, reason: 'mac' })
    claims.payload.cart = 'blue-shoes'
    claims.exp += 1
    parts[2] = encodeBase64url(Buffer.from(JSON.stringify(claims)))
    expect(await codec.open(parts.join('.'), BINDING)).toEqual({ ok: false, reason: 'mac' })
  })

  it('sealedModeHidesThePayload', async () => {
    const { codec } = setup({ mode: 'sealed' })
    const token = await codec.mint({ cart: 'blue-shoes' }, BINDING)
    const body = Buffer.from(token.split('.')[2]!, 'base64url').toString('latin1')
    expect(token).not.toContain('blue-shoes')
    expect(body).not.toContain('blue-shoes')
    expect(body).not.toContain('"iat"')
  })

  it('rejectsATokenWithThePrefixOfTheOtherMode', async () => {
    const sealed = setup({ mode: 'sealed' }).codec
    const signed = setup({ mode: 'signed' }).codec
    const sealedToken = await sealed.mint(1, BINDING)
    const signedToken = await signed.mint(1, BINDING)
    expect(await signed.open(sealedToken, BINDING)).toEqual({ ok: false, reason: 'malformed' })
    expect(await sealed.open(signedToken, BINDING)).toEqual({ ok: false, reason: 'malformed' })
    expect(await signed.open(sealedToken.replace('tss1.', 'tsh1.'), BINDING)).toEqual({
      ok: false,
      reason: 'malformed',
    })
    expect(await sealed.open(signedToken.replace('tsh1.', 'tss1.'), BINDING)).toEqual({
      ok: false,
      reason: 'malformed',
    })
  })

  it('defaultsToSealed', () => {
    expect(createRequestStateCodec({ keys: [keyA] }).mode).toBe('sealed')
  })
})

describe('createRequestStateCodec options', () => {
  it('rejectsAShortKeyAnEmptyRingAndADuplicateId', () => {
    expect(() => createRequestStateCodec({ keys: [{ id: 'k', secret: 'short' }] })).toThrow(RangeError)
    expect(() => createRequestStateCodec({ keys: [] })).toThrow(RangeError)
    expect(() => createRequestStateCodec({ keys: [keyA, { ...keyB, id: keyA.id }] })).toThrow(RangeError)
  })

  it('rejectsAnOutOfRangeTtlOrLimit', () => {
    for (const ttlSeconds of [0, -1, 1.5, 86_401, Number.NaN]) {
      expect(() => createRequestStateCodec({ keys: [keyA], ttlSeconds }), String(ttlSeconds)).toThrow(
        RangeError,
      )
    }
    expect(createRequestStateCodec({ keys: [keyA], ttlSeconds: 86_400 }).ttlSeconds).toBe(86_400)
    expect(() => createRequestStateCodec({ keys: [keyA], maxTokenLength: 0 })).toThrow(RangeError)
    expect(() => createRequestStateCodec({ keys: [keyA], clockSkewSeconds: -1 })).toThrow(RangeError)
  })

  it('rejectsAnUnknownModeOrClock', () => {
    expect(() => createRequestStateCodec({ keys: [keyA], mode: 'plain' as StateMode })).toThrow(RangeError)
    expect(() => createRequestStateCodec({ keys: [keyA], clock: unchecked(5) })).toThrow(TypeError)
  })
})
