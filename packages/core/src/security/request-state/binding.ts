/**
 * @module binding
 * Computes the binding string a requestState is minted and opened under, so a state echoed on
 * another call, by another principal or to another server is refused. What identifies a call is
 * an allowlist (method, tool/prompt name or resource URI, argument digest): fields a client adds
 * or changes between rounds (`_meta`, `requestState`, `inputResponses`, anything unknown) never
 * enter it, so honest retries keep binding alike.
 */

import { sha256Base64url } from '#crypto'
import { assertKnownOptions, type OptionNames } from '../../option-checks.ts'
import { RecentVerdicts } from '../../string-verdicts.ts'
import { canonicalJson } from './canonical-json.ts'

/** Who is calling, as the transport's authenticator established it. */
export interface AuthInfo {
  issuer?: string
  clientId?: string
  subject?: string
  /** The scopes the caller was granted: checked against the `scopes` of what it calls. */
  scopes?: readonly string[]
  claims?: Record<string, unknown>
  token?: string
}

/** What a binder is given to bind a state to: the server's identity and the call, with its caller. */
export interface BindingInput {
  /** Server identity: shared by replicas of one server, distinct between servers sharing keys. */
  audience: string
  method: string
  params: Record<string, unknown> | undefined
  auth: AuthInfo | undefined
}

/**
 * The binding string a state is minted and opened under, or the refusal of a caller that has no
 * stable identity (it must not share a binding with anyone else).
 */
export type BindingResult = { ok: true; binding: string } | { ok: false; reason: 'no-stable-principal' }
/**
 * Decides which calls a requestState opens for: two calls with the same binding can use each
 * other's state. Given as `requestState.binder`; `originatingRequestBinder()` is the default.
 */
export type Binder = (input: BindingInput) => BindingResult

/** Options of `originatingRequestBinder`. */
export interface OriginatingRequestBinderOptions {
  /** Stable identity of an authenticated caller; undefined (or '') fails closed. */
  principal?: (auth: AuthInfo) => string | undefined
}

const BINDER_OPTION_NAMES = {
  principal: true,
} as const satisfies OptionNames<OriginatingRequestBinderOptions>

// Versioned so a future change of what is bound cannot collide with today's encodings.
const DOMAIN = 'tessera/request-state-binding/v1'
const NO_STABLE_PRINCIPAL: BindingResult = { ok: false, reason: 'no-stable-principal' }
const ANONYMOUS = ['anonymous'] as const
const NAMED_TARGET: Readonly<Record<string, true>> = { 'tools/call': true, 'prompts/get': true }

/**
 * Binds a state to its audience, principal, method, target and argument digest.
 * Principal: no auth → a fixed anonymous value; auth → issuer, client id and subject (never the
 * token, so a refresh between rounds still binds alike), or the custom extractor's value. An
 * authenticated caller without a subject (or whose extractor returns nothing) gets
 * 'no-stable-principal': two users must never collapse onto one value.
 * Absent `arguments` bind like `{}`: both mean "no arguments" to a handler, and some clients omit
 * the field. Throws RangeError for arguments nested deeper than canonicalJson allows.
 *
 * @example
 * ```ts
 * import { createServer } from '@tessera/core'
 * import { originatingRequestBinder } from '@tessera/core/request-state'
 *
 * createServer({
 *   name: 'ops',
 *   version: '1.0.0',
 *   requestState: {
 *     keys: [{ id: '2026-08', secret: process.env.STATE_KEY_2026_08! }],
 *     binder: originatingRequestBinder({
 *       principal: (auth) => auth.claims?.['tenant_user'] as string | undefined,
 *     }),
 *   },
 * })
 * ```
 */
export function originatingRequestBinder(options: OriginatingRequestBinderOptions = {}): Binder {
  assertKnownOptions(options, BINDER_OPTION_NAMES, 'originatingRequestBinder')
  const extract = options.principal
  if (extract !== undefined && typeof extract !== 'function') {
    throw new TypeError('principal must be a function')
  }
  return (input) => {
    const principal = principalOf(input.auth, extract)
    if (principal === undefined) return NO_STABLE_PRINCIPAL
    const { method, params } = input
    return bound([
      DOMAIN,
      'request',
      input.audience,
      principal,
      method,
      targetOf(method, params),
      argumentsTextOf(method, params),
    ])
  }
}

/**
 * Binds only the audience: a state then opens on any call by anyone within its TTL. Use it for
 * states that are meant to travel between calls or principals (a load-shedding retry token that
 * carries no handler data, a flow the handler re-checks itself), accepting replay within the TTL.
 */
export const unboundBinder: Binder = (input) => bound([DOMAIN, 'unbound', input.audience])

/**
 * SHA-256 (base64url) of the RFC 8785 canonical form of a JSON value.
 * @example
 * ```ts
 * import { digestArguments } from './binding.ts'
 *
 * digestArguments({ b: 1, a: 2 }) === digestArguments({ a: 2, b: 1 }) // true
 * ```
 */
export function digestArguments(value: unknown): string {
  return sha256Base64url(canonicalJson(value))
}

type PrincipalParts = readonly (string | null)[]

function principalOf(
  auth: AuthInfo | undefined,
  extract: OriginatingRequestBinderOptions['principal'],
): PrincipalParts | undefined {
  if (auth === undefined) return ANONYMOUS
  if (extract !== undefined) {
    const id = extract(auth)
    return typeof id === 'string' && id !== '' ? ['custom', id] : undefined
  }
  if (!isNonEmpty(auth.subject)) return undefined
  // A claim present on one side only binds differently (null vs value), so it is refused.
  return ['oauth', stringOrNull(auth.issuer), stringOrNull(auth.clientId), auth.subject]
}

function targetOf(method: string, params: Record<string, unknown> | undefined): string | null {
  const field = NAMED_TARGET[method] ? 'name' : method === 'resources/read' ? 'uri' : undefined
  const value = field === undefined ? undefined : params?.[field]
  return typeof value === 'string' ? value : null
}

function argumentsTextOf(method: string, params: Record<string, unknown> | undefined): string | null {
  if (!NAMED_TARGET[method]) return null
  const args = params?.['arguments']
  return canonicalJson(args === undefined ? {} : args)
}

/** Where the arguments' canonical text sits in the parts, and their digest in what is hashed. */
const ARGUMENTS = 6

/**
 * A call's binding is computed on every round of it (to seal the state, then to open it) and
 * comes out the same each time, so it is remembered by the text it is computed from: the parts
 * with the arguments' canonical text in place of their digest, so that a later round pays for
 * neither digest. That text names the principal, so a caller only ever finds its own calls here.
 */
const bindingsByParts = new RecentVerdicts(512, 4096, bindingOfParts)

function bindingOfParts(text: string): string {
  const parts = JSON.parse(text) as unknown[]
  const args = parts[ARGUMENTS]
  if (typeof args === 'string') parts[ARGUMENTS] = sha256Base64url(args)
  return sha256Base64url(JSON.stringify(parts))
}

// A JSON array of strings, nulls and arrays of those has one reading, whatever characters the
// values hold.
function bound(parts: readonly unknown[]): BindingResult {
  return { ok: true, binding: bindingsByParts.of(JSON.stringify(parts)) }
}

function isNonEmpty(value: unknown): value is string {
  return typeof value === 'string' && value !== ''
}

function stringOrNull(value: unknown): string | null {
  return typeof value === 'string' ? value : null
}
