/**
 * @module jwks-source
 * Turns the `jwks` option of the JWT verifier into one jose key resolver, whichever form it took:
 * a remote set, a set given inline, or a file holding one. A local set is checked when the
 * verifier is built, so a deployment with a broken key file fails at start, not at the first
 * request. Whatever the resolver throws that is not "no such key" becomes a `KeySourceError`:
 * the verifier then knows the keys, not the token, were the problem.
 */
import { readFileSync } from 'node:fs'
import { createLocalJWKSet, errors, type JSONWebKeySet, type JWTVerifyGetKey } from 'jose'
import { type RemoteJwksOptions, remoteJwks } from './remote-jwks.ts'
import { secureUrl } from './secure-url.ts'

/** The keys could not be had (fetch failed, cooling down, a key would not import): not the token's fault. */
export class KeySourceError extends Error {
  override readonly name = 'KeySourceError'
}

export type JwksOption = URL | { keys: unknown[] } | string

/** The resolver for `jwks`; a TypeError now if a local set is unreadable or invalid. */
export function keySource(jwks: JwksOption, remote: RemoteJwksOptions): JWTVerifyGetKey {
  const resolver = jwks instanceof URL ? remoteJwks(secureUrl(jwks, 'jwks'), remote) : localJwks(jwks)
  return async (header, token) => {
    try {
      return await resolver(header, token)
    } catch (error) {
      // These two are answers about the token's header; the second carries the candidates.
      if (error instanceof errors.JWKSNoMatchingKey || error instanceof errors.JWKSMultipleMatchingKeys)
        throw error
      throw new KeySourceError(error instanceof errors.JOSEError ? error.code : errorName(error))
    }
  }
}

function errorName(error: unknown): string {
  return error instanceof Error ? error.name : 'unknown error'
}

function localJwks(jwks: { keys: unknown[] } | string): JWTVerifyGetKey {
  const set = typeof jwks === 'string' ? readJwksFile(jwks) : jwks
  const what = typeof jwks === 'string' ? `The JWKS file ${jwks}` : 'The JWKS'
  checkKeys(set, what)
  try {
    return createLocalJWKSet(set as JSONWebKeySet)
  } catch {
    throw new TypeError(`${what} is not a valid JSON Web Key Set.`)
  }
}

function readJwksFile(path: string): unknown {
  if (/^https?:\/\//i.test(path)) {
    throw new TypeError(`jwks "${path}" is read as a file path: pass new URL(...) for a remote JWKS.`)
  }
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch (error) {
    const code = (error as { code?: unknown }).code
    throw new TypeError(
      `The JWKS file ${path} cannot be read (${typeof code === 'string' ? code : errorName(error)}).`,
    )
  }
  try {
    return JSON.parse(text)
  } catch {
    throw new TypeError(`The JWKS file ${path} is not valid JSON.`)
  }
}

/**
 * A set verifiers trust must hold public asymmetric keys only: a shared secret or a private key in
 * it is a deployment mistake to stop at once, not a key to try.
 */
function checkKeys(set: unknown, what: string): void {
  const keys = typeof set === 'object' && set !== null ? (set as { keys?: unknown }).keys : undefined
  if (!Array.isArray(keys)) throw new TypeError(`${what} must be an object with a "keys" array.`)
  if (keys.length === 0) throw new TypeError(`${what} holds no keys.`)
  for (const key of keys) {
    if (typeof key !== 'object' || key === null || typeof (key as { kty?: unknown }).kty !== 'string') {
      throw new TypeError(`${what} holds a key without a "kty".`)
    }
    if ((key as { kty: string }).kty === 'oct') throw new TypeError(`${what} holds a symmetric ("oct") key.`)
    if ('d' in key) throw new TypeError(`${what} holds a private key: publish only public keys.`)
  }
}
