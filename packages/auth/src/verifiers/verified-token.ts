/**
 * @module verified-token
 * Reads the claims both verifiers interpret (the same names in a JWT and in an introspection
 * answer) into a `VerifiedToken`. A claim with the wrong shape refuses the token rather than being
 * skipped: a caller must never read a silently dropped `scope` as "no scopes" or a numeric `sub`
 * as anonymous.
 */
import { TokenRejectedError, type VerifiedToken } from './token-verifier.ts'

/** The `VerifiedToken` for claims whose issuer, audience and times the caller has already checked. */
export function verifiedToken(claims: Record<string, unknown>, issuer: string): VerifiedToken {
  return {
    issuer,
    subject: optionalString(claims['sub']),
    clientId: optionalString(claims['client_id']) ?? optionalString(claims['azp']),
    scopes: scopesOf(claims),
    audience: audienceOf(claims['aud']),
    expiresAt: optionalNumber(claims['exp']),
    jkt: thumbprintOf(claims['cnf']),
    claims: structuredClone(claims),
  }
}

function malformed(): TokenRejectedError {
  return new TokenRejectedError('malformed')
}

/** Present means non-empty: an empty subject or client would otherwise read as someone. */
function optionalString(value: unknown): string | undefined {
  if (value === undefined) return undefined
  if (typeof value !== 'string' || value === '') throw malformed()
  return value
}

function optionalNumber(value: unknown): number | undefined {
  if (value === undefined) return undefined
  if (typeof value !== 'number' || !Number.isFinite(value)) throw malformed()
  return value
}

function stringArray(value: unknown): string[] {
  if (!Array.isArray(value) || !value.every((item) => typeof item === 'string')) throw malformed()
  return [...value]
}

function spaceSeparated(value: string): string[] {
  return value.split(' ').filter((item) => item !== '')
}

/**
 * `scope` is the registered claim (a space-separated string). `scp` is what several issuers send
 * instead: an array by most, a space-separated string by some, so both forms are read.
 */
function scopesOf(claims: Record<string, unknown>): string[] {
  const scope = claims['scope']
  if (scope !== undefined) {
    if (typeof scope !== 'string') throw malformed()
    return unique(spaceSeparated(scope))
  }
  const scp = claims['scp']
  if (scp === undefined) return []
  return unique(typeof scp === 'string' ? spaceSeparated(scp) : stringArray(scp))
}

function unique(items: string[]): string[] {
  return [...new Set(items)]
}

function audienceOf(value: unknown): string[] {
  if (value === undefined) return []
  if (typeof value === 'string') return [value]
  return stringArray(value)
}

/** Only `jkt` is read; other confirmation methods (such as a certificate hash) leave it undefined. */
function thumbprintOf(cnf: unknown): string | undefined {
  if (cnf === undefined) return undefined
  if (typeof cnf !== 'object' || cnf === null || Array.isArray(cnf)) throw malformed()
  return optionalString((cnf as Record<string, unknown>)['jkt'])
}
