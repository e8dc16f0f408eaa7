/**
 * @module challenge
 * Reads a `WWW-Authenticate` header (RFC 9110 section 11.6.1) into its challenges: a scheme and
 * its parameters, quoted strings unescaped, so a client can say what a refusal asks for (the
 * `error`, its `error_description`, the `scope` a token needs, where the resource's metadata is).
 * A part it cannot read ends the reading: what came before is kept. Pure, with no Node import:
 * `tessera call` reads a refusal with it, and the development console's page bundles it.
 */

export interface Challenge {
  /** As sent (`Bearer`, `DPoP`); compare without case. */
  scheme: string
  /** Parameter names in lowercase. */
  params: Record<string, string>
}

const TOKEN = "[!#$%&'*+\\-.^_`|~0-9A-Za-z]+"
const SCHEME = new RegExp(`^[\\s,]*(${TOKEN})(?=\\s|,|$)`)
const TOKEN68 = /^\s+[A-Za-z0-9\-._~+/]+=*\s*(?=,|$)/
const PARAM = new RegExp(`^[\\s,]*(${TOKEN})\\s*=\\s*(?:"((?:[^"\\\\]|\\\\.)*)"|(${TOKEN}))\\s*(?=,|$)`)

export function parseChallenges(header: string): Challenge[] {
  const challenges: Challenge[] = []
  let rest = header
  for (;;) {
    const scheme = SCHEME.exec(rest)
    if (scheme === null) return challenges
    rest = rest.slice(scheme[0].length)
    const token68 = TOKEN68.exec(rest)
    if (token68 !== null) rest = rest.slice(token68[0].length)
    const params: Record<string, string> = {}
    for (let param = PARAM.exec(rest); param !== null; param = PARAM.exec(rest)) {
      params[param[1]!.toLowerCase()] = param[2]?.replace(/\\(.)/g, '$1') ?? param[3]!
      rest = rest.slice(param[0].length)
    }
    challenges.push({ scheme: scheme[1]!, params })
  }
}

/** The challenge of `scheme` (without case), if the header has one. */
export function challengeOf(challenges: readonly Challenge[], scheme: string): Challenge | undefined {
  return challenges.find((c) => c.scheme.toLowerCase() === scheme.toLowerCase())
}
