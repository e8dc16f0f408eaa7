import { describe, expect, it } from 'vitest'
import { deriveStateKeys } from '#crypto'
import { unchecked } from '../../../../../test/helpers/unchecked.ts'
import type { Bytes, StateKeys } from '../crypto.ts'
import * as nodeCrypto from '../crypto-node.ts'
import * as webCrypto from '../crypto-web.ts'
import { createKeyRing, generateStateKey, isValidKeyId } from './key-ring.ts'

const secret = 's'.repeat(32)

describe('createKeyRing', () => {
  it('keepsRingOrderAndMakesTheFirstKeyPrimary', () => {
    const ring = createKeyRing([
      { id: 'new', secret },
      { id: 'old', secret: new Uint8Array(32).fill(7) },
    ])
    expect(ring.ids).toEqual(['new', 'old'])
    expect(ring.primary.id).toBe('new')
    expect(ring.find('old')?.id).toBe('old')
    expect(ring.find('gone')).toBeUndefined()
    expect(ring.find('__proto__')).toBeUndefined()
  })

  it('derivesEachKeyOnceOnFirstUseFromACopyOfItsSecretThenWipesTheCopy', () => {
    const given = new Uint8Array(32).fill(7)
    const seen: { held: Uint8Array; asPassed: Uint8Array }[] = []
    const derive = (bytes: Bytes) => {
      seen.push({ held: bytes, asPassed: bytes.slice() })
      return deriveStateKeys(bytes)
    }
    const { primary } = createKeyRing([{ id: 'k', secret: given }], derive)
    expect(seen).toHaveLength(0)
    given.fill(0)
    const first = primary.keys()
    expect(primary.keys()).toBe(first)
    expect(seen).toHaveLength(1)
    expect(seen[0]!.asPassed).toEqual(new Uint8Array(32).fill(7))
    expect(seen[0]!.held).toEqual(new Uint8Array(32))
  })

  it('derivesFromTheSecretBeforeWipingItOnEitherPlatform', async () => {
    const secret = 'w'.repeat(32)
    for (const platform of [nodeCrypto, webCrypto]) {
      const ring = createKeyRing([{ id: 'k', secret }], platform.deriveStateKeys)
      // Keys derived from a copy nobody wipes: what the ring's keys must equal.
      const unwiped = await platform.deriveStateKeys(new TextEncoder().encode(secret))
      const tagOf = async (keys: StateKeys) => platform.bindTag(keys, 'n'.repeat(22), 'binding')
      expect(await tagOf(await ring.primary.keys())).toEqual(await tagOf(unwiped))
    }
  })

  it('countsTheUtf8BytesOfAStringSecret', () => {
    expect(() => createKeyRing([{ id: 'k', secret: 'é'.repeat(16) }])).not.toThrow()
    expect(() => createKeyRing([{ id: 'k', secret: 'e'.repeat(31) }])).toThrow(RangeError)
  })

  it('rejectsAShortKey', () => {
    expect(() => createKeyRing([{ id: 'k', secret: new Uint8Array(31) }])).toThrow(RangeError)
  })

  it('rejectsAnEmptyRing', () => {
    expect(() => createKeyRing([])).toThrow(RangeError)
    expect(() => createKeyRing(unchecked(undefined))).toThrow(TypeError)
  })

  it('rejectsADuplicateId', () => {
    expect(() =>
      createKeyRing([
        { id: 'k', secret },
        { id: 'k', secret: 't'.repeat(32) },
      ]),
    ).toThrow(RangeError)
  })

  it('rejectsABadId', () => {
    for (const id of ['', 'a.b', 'a b', 'é', 'k'.repeat(33), 'a/b']) {
      expect(() => createKeyRing([{ id, secret }]), id).toThrow(RangeError)
    }
    expect(() => createKeyRing([{ id: unchecked(5), secret }])).toThrow(TypeError)
    expect(() => createKeyRing([{ id: 'k', secret: unchecked(5) }])).toThrow(TypeError)
    expect(isValidKeyId('k'.repeat(32))).toBe(true)
    expect(isValidKeyId('2026-08_a')).toBe(true)
  })

  it('namesWhatIsMissingWhenASecretIsUndefined', () => {
    const fromEnv = { id: 'k1', secret: process.env.TESSERA_NO_SUCH_VARIABLE as string }
    expect(() => createKeyRing([fromEnv])).toThrow(
      'requestState key "k1": secret is undefined; it must be a string or a Uint8Array (is the variable that should hold it set?)',
    )
    expect(() => createKeyRing([unchecked(undefined)])).toThrow(
      'requestState keys[0] is undefined; each key is { id, secret }',
    )
  })

  it('neverPrintsASecretOfTheWrongType', () => {
    const secret = 1234567890123
    expect(() => createKeyRing([{ id: 'k', secret: unchecked(secret) }])).toThrow(/secret is of type number/)
    expect(() => createKeyRing([{ id: 'k', secret: unchecked(secret) }])).not.toThrow(/1234/)
  })
})

describe('generateStateKey', () => {
  it('makesARandom32ByteKeyWithAValidId', () => {
    const a = generateStateKey()
    const b = generateStateKey()
    expect(isValidKeyId(a.id)).toBe(true)
    expect(a.id).not.toBe(b.id)
    expect(a.secret).toHaveLength(32)
    expect(Buffer.from(a.secret).equals(Buffer.from(b.secret))).toBe(false)
    expect(generateStateKey('mine').id).toBe('mine')
    expect(() => generateStateKey('no.dots')).toThrow(RangeError)
    expect(() => createKeyRing([a, b])).not.toThrow()
  })
})
