import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { sha256Base64url } from '#crypto'
import { BIND_TAG_BYTES, type Bytes, GCM_TAG_BYTES, type StateKeys } from './crypto.ts'
import * as nodeCrypto from './crypto-node.ts'
import * as webCrypto from './crypto-web.ts'

describe('sha256Base64url', () => {
  it('isTheSha256OfTheUtf8BytesAsUnpaddedBase64url', () => {
    for (const text of ['', 'hello', 'ünïcødé ✓', '\u{1F600}', 'lone \uD800 surrogate', 'x'.repeat(10_000)]) {
      expect(sha256Base64url(text)).toBe(createHash('sha256').update(text, 'utf8').digest('base64url'))
    }
    expect(sha256Base64url('abc')).toBe('ungWv48Bz-pBQUDeXa4iI7ADYaOWF3qctBD_YfIAFa0')
  })
})

const randomBytesOf = (length: number): Bytes => globalThis.crypto.getRandomValues(new Uint8Array(length))
/** Empty, then random byte strings of every length from 1 to 64. */
const BYTE_INPUTS: Bytes[] = [
  new Uint8Array(0),
  ...Array.from({ length: 64 }, (_, i) => randomBytesOf(i + 1)),
]
const TEXT_INPUTS = [
  '',
  'abc',
  'ünïcødé ✓',
  '日本語のテキスト',
  '\u{1F600} emoji',
  'lone \uD800 high surrogate',
  'lone \uDC00 low surrogate',
  'reversed pair \uDC00\uD800',
  '\uD83D',
  '\u0000 nul and \u00ff latin1',
  ...BYTE_INPUTS.map((bytes) => String.fromCharCode(...bytes)),
]

describe('crypto-node and crypto-web', () => {
  it('giveTheSameSha256Base64urlOfAnyText', () => {
    for (const text of TEXT_INPUTS) {
      const expected = createHash('sha256').update(text, 'utf8').digest('base64url')
      expect(nodeCrypto.sha256Base64url(text), JSON.stringify(text)).toBe(expected)
      expect(webCrypto.sha256Base64url(text), JSON.stringify(text)).toBe(expected)
    }
  })

  it('giveTheSameBase64urlOfAnyBytes', () => {
    const utf8 = new TextEncoder()
    const texts = TEXT_INPUTS.map((text) => utf8.encode(text))
    // A view into a larger buffer: only its own bytes are encoded.
    const view = randomBytesOf(40).subarray(7, 30)
    for (const bytes of [...BYTE_INPUTS, ...texts, view]) {
      const expected = Buffer.from(bytes).toString('base64url')
      expect(nodeCrypto.encodeBase64url(bytes), expected).toBe(expected)
      expect(webCrypto.encodeBase64url(bytes), expected).toBe(expected)
    }
  })

  describe('under keys derived from one secret', () => {
    const secret: Bytes = new Uint8Array(32).map((_, i) => i * 7)
    const IV: Bytes = new Uint8Array(12).map((_, i) => 0xa0 + i)
    const HEADER = 'tss1.key-a.'
    const CLAIMS = JSON.stringify({ iat: 1, exp: 2, payload: { note: 'ünïcødé ✓ \u{1F600}' } })

    async function derived(): Promise<readonly [StateKeys, StateKeys]> {
      return [await nodeCrypto.deriveStateKeys(secret), await webCrypto.deriveStateKeys(secret)]
    }

    it('sealTheSameBytesAndOpenEachOthers', async () => {
      const [onNode, onWeb] = await derived()
      const sealedOnNode = nodeCrypto.sealState(onNode, IV, HEADER, CLAIMS)
      const sealedOnWeb = await webCrypto.sealState(onWeb, IV, HEADER, CLAIMS)
      expect(new Uint8Array(sealedOnWeb)).toEqual(new Uint8Array(sealedOnNode))
      expect(sealedOnNode.length).toBe(new TextEncoder().encode(CLAIMS).length + GCM_TAG_BYTES)
      const claims = new TextEncoder().encode(CLAIMS)
      expect(new Uint8Array(nodeCrypto.unsealState(onNode, IV, HEADER, sealedOnWeb)!)).toEqual(claims)
      expect(new Uint8Array((await webCrypto.unsealState(onWeb, IV, HEADER, sealedOnNode))!)).toEqual(claims)
    })

    it('signTheSameMacAndVerifyEachOthers', async () => {
      const [onNode, onWeb] = await derived()
      const signed = 'tsh1.key-a.eyJpYXQiOjF9'
      const macOnNode = nodeCrypto.signState(onNode, signed)
      const macOnWeb = await webCrypto.signState(onWeb, signed)
      expect(macOnNode.length).toBe(32)
      expect(new Uint8Array(macOnWeb)).toEqual(new Uint8Array(macOnNode))
      expect(nodeCrypto.verifyState(onNode, signed, macOnWeb)).toBe(true)
      expect(await webCrypto.verifyState(onWeb, signed, macOnNode)).toBe(true)
      expect(nodeCrypto.verifyState(onNode, `${signed}x`, macOnWeb)).toBe(false)
      expect(await webCrypto.verifyState(onWeb, `${signed}x`, macOnNode)).toBe(false)
    })

    it('computeTheSameBindingTagForAnyBinding', async () => {
      const [onNode, onWeb] = await derived()
      const nonce = 'AAECAwQFBgcICQoLDA0ODw'
      for (const binding of TEXT_INPUTS) {
        const onNodeTag = nodeCrypto.bindTag(onNode, nonce, binding)
        const onWebTag = await webCrypto.bindTag(onWeb, nonce, binding)
        expect(onNodeTag.length).toBe(BIND_TAG_BYTES)
        expect(new Uint8Array(onWebTag), JSON.stringify(binding)).toEqual(new Uint8Array(onNodeTag))
      }
      // The binding's UTF-16 code units are what is tagged: lone surrogates do not collapse.
      const tags = ['\uD800', '\uD801', '\uFFFD'].map((binding) =>
        Buffer.from(nodeCrypto.bindTag(onNode, nonce, binding)).toString('hex'),
      )
      expect(new Set(tags).size).toBe(3)
    })
  })

  it.each([
    ['crypto-node', nodeCrypto.sameBytes],
    ['crypto-web', webCrypto.sameBytes],
  ] as const)('%sTellsEqualBytesFromBytesDifferingInOneByteOrInLength', (_, sameBytes) => {
    for (const bytes of BYTE_INPUTS) {
      expect(sameBytes(bytes, bytes.slice())).toBe(true)
      expect(sameBytes(bytes, new Uint8Array([...bytes, 0]))).toBe(false)
      for (let at = 0; at < bytes.length; at++) {
        const other = bytes.slice()
        other[at] = other[at]! ^ 0x80
        expect(sameBytes(bytes, other)).toBe(false)
      }
      if (bytes.length > 0) expect(sameBytes(bytes, bytes.slice(1))).toBe(false)
    }
  })
})
