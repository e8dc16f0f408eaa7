/**
 * @module token-edits.fixture
 * Changes a test makes to a requestState token, each keeping it well-formed so that only the
 * authentication can refuse it.
 */
import { encodeBase64url } from '#crypto'
import { decodeBase64url } from './base64url.ts'

/** Flips one bit of one decoded byte of a body part and re-encodes it canonically. */
export function flipByte(token: string, part: number, byte: number): string {
  const parts = token.split('.')
  const bytes = decodeBase64url(parts[part]!)!
  const at = (byte + bytes.length) % bytes.length
  bytes[at] = bytes[at]! ^ 0x01
  parts[part] = encodeBase64url(bytes)
  return parts.join('.')
}
