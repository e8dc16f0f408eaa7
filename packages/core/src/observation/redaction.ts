/**
 * @module redaction
 * What no log line may show, whichever logger writes it: credentials under their usual names
 * (tokens, DPoP proofs, requestStates and the answers sent with them), at the top of a line and
 * one level down (`headers.…`, `params.…`), and the values of `Mcp-Param-*` headers, which are
 * argument values.
 */

/** The names a credential goes by in a log line. */
const SECRET_KEYS = [
  'authorization',
  'dpop',
  'token',
  'accessToken',
  'requestState',
  'inputResponses',
  'cookie',
]
/** The same, as pino's `redact` paths. */
export const REDACTED_PATHS: readonly string[] = SECRET_KEYS.flatMap((key) => [key, `*.${key}`])
const SECRETS: ReadonlySet<string> = new Set(SECRET_KEYS)

export const CENSOR = '[redacted]'
/** The headers that mirror tool arguments (`Mcp-Param-Name`): their values are argument values. */
const PARAM_HEADER = /^mcp-param-/i

/** `line` with every `Mcp-Param-*` value censored, at its top and one level down; copied only when one is. */
export function withoutParamHeaders(line: Record<string, unknown>, depth = 0): Record<string, unknown> {
  return censored(line, depth, (key) => PARAM_HEADER.test(key))
}

/** `line` with every credential and every `Mcp-Param-*` value censored, at its top and one level down. */
export function redacted(line: Record<string, unknown>): Record<string, unknown> {
  return censored(line, 0, (key) => SECRETS.has(key) || PARAM_HEADER.test(key))
}

function censored(
  line: Record<string, unknown>,
  depth: number,
  secret: (key: string) => boolean,
): Record<string, unknown> {
  let out = line
  for (const key of Object.keys(line)) {
    const value = line[key]
    let kept = value
    if (secret(key)) kept = CENSOR
    else if (depth === 0 && isPlainObject(value)) kept = censored(value, 1, secret)
    if (kept === value) continue
    if (out === line) out = { ...line }
    out[key] = kept
  }
  return out
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false
  const proto = Object.getPrototypeOf(value)
  return proto === Object.prototype || proto === null
}
