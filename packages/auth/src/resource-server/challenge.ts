/**
 * @module challenge
 * `WWW-Authenticate` values (RFC 6750 §3, RFC 9449 §7.1): a scheme and quoted parameters.
 * Parameter values are written by this package only (scopes, URLs, fixed descriptions), never
 * copied from the request, so nothing a client sends can reach the header.
 */

export type ChallengeParams = Record<string, string | undefined>

/** `Bearer realm="…", scope="…"`: parameters in order, undefined ones left out. */
export function challenge(scheme: 'Bearer' | 'DPoP', params: ChallengeParams): string {
  const parts: string[] = []
  for (const [name, value] of Object.entries(params)) {
    if (value !== undefined) parts.push(`${name}="${value.replace(/["\\]/g, '\\$&')}"`)
  }
  return parts.length === 0 ? scheme : `${scheme} ${parts.join(', ')}`
}
