/**
 * @module jwks-source.test
 * Local key sets, inline or from a file: a good one verifies tokens, a bad one stops the verifier
 * from being built, with an error that says what is wrong.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { exportJWK } from 'jose'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { jwtVerifier } from './jwt-verifier.ts'
import {
  AUDIENCE,
  ISSUER,
  jwksOf,
  NOW_MS,
  rejection,
  signToken,
  type TestKey,
  testKey,
} from './signing.fixture.ts'

let key: TestKey
let other: TestKey
let directory: string

beforeAll(async () => {
  ;[key, other] = await Promise.all([testKey('key-1'), testKey('key-2')])
  directory = mkdtempSync(join(tmpdir(), 'tessera-jwks-'))
})

afterAll(() => {
  rmSync(directory, { recursive: true, force: true })
})

function verifierWith(jwks: URL | { keys: unknown[] } | string) {
  return jwtVerifier({ issuer: ISSUER, audience: AUDIENCE, jwks, now: () => NOW_MS })
}

function fileHolding(name: string, content: string): string {
  const path = join(directory, name)
  writeFileSync(path, content)
  return path
}

describe('keySource', () => {
  it('verifiesWithAJwksGivenInline', async () => {
    const verifier = verifierWith(jwksOf(key, other))
    expect((await verifier.verify(await signToken(other))).subject).toBe('user-1')
  })

  it('doesNotSeeLaterChangesToTheInlineJwks', async () => {
    const jwks = jwksOf(key)
    const verifier = verifierWith(jwks)
    jwks.keys.length = 0
    expect((await verifier.verify(await signToken(key))).subject).toBe('user-1')
  })

  it('verifiesWithAJwksReadFromAFile', async () => {
    const path = fileHolding('jwks.json', JSON.stringify(jwksOf(key)))
    const verifier = verifierWith(path)
    // Read once, at construction: removing the file changes nothing.
    rmSync(path)
    expect((await verifier.verify(await signToken(key))).subject).toBe('user-1')
    expect((await rejection(verifier.verify(await signToken(other)))).reason).toBe('unknown-key')
  })

  it('refusesAMissingOrUnparsableFileAtConstruction', () => {
    expect(() => verifierWith(join(directory, 'absent.json'))).toThrow(/cannot be read \(ENOENT\)/)
    expect(() => verifierWith(fileHolding('broken.json', '{"keys": ['))).toThrow(/is not valid JSON/)
    expect(() => verifierWith(fileHolding('empty.json', '{"keys": []}'))).toThrow(/holds no keys/)
    expect(() => verifierWith(fileHolding('shape.json', '{"key": []}'))).toThrow(/"keys" array/)
  })

  it('pointsAtUrlWhenGivenAUrlString', () => {
    expect(() => verifierWith('https://issuer.example/jwks')).toThrow(/new URL/)
  })

  it('refusesSymmetricOrPrivateKeysAtConstruction', async () => {
    const privateJwk = await exportJWK(key.privateKey)
    expect(() => verifierWith({ keys: [{ ...privateJwk, kid: 'p' }] })).toThrow(/private key/)
    expect(() => verifierWith({ keys: [{ kty: 'oct', k: 'c2VjcmV0', kid: 's' }] })).toThrow(/symmetric/)
    expect(() => verifierWith({ keys: [{ kid: 'no-kty' }] })).toThrow(/kty/)
    expect(() => verifierWith({ keys: [key.jwk, 'not a key'] })).toThrow(TypeError)
  })

  it('reportsAKeyThatWillNotImportAsVerifierUnavailable', async () => {
    const broken = { ...key.jwk, n: 'AQAB' }
    const error = await rejection(verifierWith({ keys: [broken] }).verify(await signToken(key)))
    expect(error.reason).toBe('verifier-unavailable')
  })
})
