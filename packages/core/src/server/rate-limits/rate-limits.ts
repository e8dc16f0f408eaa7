/**
 * @module rate-limits
 * The rate limits of a server, as token buckets kept in its `RateLimitStore`: per caller (every
 * request of one principal, or of one client address when anonymous), per caller and method, per
 * caller and tool, and for the whole server. A request takes one token from each bucket that
 * applies to it, the caller's first and the server's last, so a caller refused by its own limit
 * costs the others nothing. Over a limit: `TESSERA_RATE_LIMITED` (HTTP 429 with `Retry-After`).
 * A store that cannot be reached refuses the request (503), unless the limit says `allow`. Every
 * take is announced as a store call, and every refusal as a `rate-limited` step (the log, metrics
 * and the development console show them).
 */
import { sha256Base64url } from '#crypto'
import { TesseraError } from '../../errors.ts'
import type { Logger } from '../../observation/logger.ts'
import type { Observer, RateLimitScope } from '../../observation/observer.ts'
import { assertKnownOptions, type OptionNames, positiveInteger } from '../../option-checks.ts'
import type { Exchange } from '../exchange.ts'
import type { BucketTake, RateLimitStore, TokenBucket } from './rate-limit-store.ts'

/** A limit: `calls` per `perMs`, as a token bucket holding `burst` calls (default `calls`). */
export interface RateLimit {
  /** Calls admitted per period, on average. */
  calls: number
  /** The period, in ms (60 000: a minute). */
  perMs: number
  /** How many calls may come at once, from a full bucket (default: `calls`). */
  burst?: number
  /** When the store cannot be reached: `'refuse'` the request (default, 503) or `'allow'` it. */
  onStoreError?: 'refuse' | 'allow'
}

/** The rate limits of a server (`ServerOptions.rateLimits`); a tool's own is `ToolConfig.rateLimit`. */
export interface RateLimitOptions {
  /** Every request of one caller: its principal, or its address when it is anonymous. */
  caller?: RateLimit
  /** The requests of one caller to one method (`'tools/call'`, `'resources/read'`, an extension's). */
  methods?: Readonly<Record<string, RateLimit>>
  /** Every request of every caller together. */
  server?: RateLimit
}

/** A limit ready to take from: its bucket, which limit it is, and how a refusal names it. */
export interface ResolvedLimit {
  readonly bucket: TokenBucket
  readonly scope: RateLimitScope
  readonly describe: string
  readonly allowOnStoreError: boolean
}

const LIMIT_NAMES = {
  calls: true,
  perMs: true,
  burst: true,
  onStoreError: true,
} as const satisfies OptionNames<RateLimit>
const OPTION_NAMES = {
  caller: true,
  methods: true,
  server: true,
} as const satisfies OptionNames<RateLimitOptions>

/**
 * `limit` checked; `scope` says which limit it is, and `what` names its owner in errors and
 * refusals (`tools/call of 'deploy'`).
 */
export function resolveLimit(
  limit: RateLimit,
  scope: RateLimitScope,
  at: { where: string; path: string; what: string },
): ResolvedLimit {
  const { where, path, what } = at
  assertKnownOptions(limit, LIMIT_NAMES, where, { path, required: true })
  const calls = positiveInteger(limit.calls, `${where}: ${path}.calls`)
  const perMs = positiveInteger(limit.perMs, `${where}: ${path}.perMs`)
  const burst = positiveInteger(limit.burst ?? calls, `${where}: ${path}.burst`)
  if (limit.onStoreError !== undefined && limit.onStoreError !== 'refuse' && limit.onStoreError !== 'allow')
    throw new TypeError(`${where}: ${path}.onStoreError must be 'refuse' or 'allow'.`)
  return {
    bucket: { capacity: burst, refillMs: perMs / calls },
    scope,
    describe: `${what} is limited to ${calls} per ${perMs} ms`,
    allowOnStoreError: limit.onStoreError === 'allow',
  }
}

/** Takes the tokens a request needs from the server's buckets, or refuses it. */
export class RateLimiter {
  /** Whether any limit is set: when none is, nothing is asked of the store. */
  readonly active: boolean
  readonly #caller: ResolvedLimit | undefined
  readonly #methods: ReadonlyMap<string, ResolvedLimit>
  readonly #server: ResolvedLimit | undefined
  readonly #store: RateLimitStore
  readonly #logger: Logger
  readonly #observer: Observer

  constructor(
    options: RateLimitOptions | undefined,
    store: RateLimitStore,
    seen: { logger: Logger; observer: Observer },
  ) {
    assertKnownOptions(options, OPTION_NAMES, 'createServer', { path: 'rateLimits' })
    const at = (scope: RateLimitScope, path: string, limit: RateLimit, what: string) =>
      resolveLimit(limit, scope, { where: 'createServer', path: `rateLimits.${path}`, what })
    this.#caller = options?.caller && at('caller', 'caller', options.caller, 'every caller')
    this.#server = options?.server && at('server', 'server', options.server, 'this server')
    this.#methods = new Map(
      Object.entries(options?.methods ?? {}).map(([method, limit]) => [
        method,
        at('method', `methods.${method}`, limit, `${method} for every caller`),
      ]),
    )
    this.#store = store
    this.#logger = seen.logger
    this.#observer = seen.observer
    this.active = this.#caller !== undefined || this.#server !== undefined || this.#methods.size > 0
  }

  /** Admits a request to `method`, or throws the refusal of the first limit it is over. */
  async admit(method: string, exchange: Exchange): Promise<void> {
    if (!this.active) return
    const caller = callerKey(exchange)
    if (this.#caller) await this.#take(`caller:${caller}`, this.#caller, method)
    const perMethod = this.#methods.get(method)
    if (perMethod) await this.#take(`method:${method}:${caller}`, perMethod, method)
    if (this.#server) await this.#take('server', this.#server, method)
  }

  /** Admits a call of the tool `name` under its own `limit` (per caller). */
  admitTool(name: string, limit: ResolvedLimit, exchange: Exchange): Promise<void> {
    return this.#take(`tool:${name}:${callerKey(exchange)}`, limit, 'tools/call', name)
  }

  async #take(key: string, limit: ResolvedLimit, method: string, tool?: string): Promise<void> {
    const take = await this.#fromStore(key, limit)
    if (take === undefined || take.allowed) return
    if (this.#observer.wants('rate-limited')) {
      this.#observer.announce({
        step: 'rate-limited',
        scope: limit.scope,
        limit: limit.describe,
        method,
        ...(tool === undefined ? {} : { tool }),
        retryAfterMs: take.retryAfterMs,
      })
    }
    const seconds = Math.max(1, Math.ceil(take.retryAfterMs / 1000))
    throw new TesseraError(
      'TESSERA_RATE_LIMITED',
      `Too many requests: ${limit.describe}; retry in ${seconds} s.`,
      {
        retryAfterMs: take.retryAfterMs,
      },
    )
  }

  /** What the store's take found; undefined when it failed and the limit lets requests through. */
  async #fromStore(key: string, limit: ResolvedLimit): Promise<BucketTake | undefined> {
    const started = performance.now()
    let ok = false
    try {
      const take = await this.#store.take(key, limit.bucket)
      ok = true
      return take
    } catch (error) {
      this.#logger.error(
        { event: 'rate_limit_store_failed', err: error, allowed: limit.allowOnStoreError },
        `The rate limit store failed: ${limit.describe}, and the request was ${limit.allowOnStoreError ? 'let through' : 'refused'}`,
      )
      if (limit.allowOnStoreError) return undefined
      throw new TesseraError(
        'TESSERA_STORE_UNAVAILABLE',
        'Service unavailable: the rate limit could not be checked; retry later.',
      )
    } finally {
      if (this.#observer.wants('store-call')) {
        const ms = performance.now() - started
        this.#observer.announce({ step: 'store-call', store: 'rateLimits', operation: 'take', ms, ok })
      }
    }
  }
}

/**
 * Whose bucket a request takes from: its principal (issuer, client and subject, hashed, so no
 * identity is written to the store), or its client's address when it is anonymous.
 */
function callerKey(exchange: Exchange): string {
  const auth = exchange.auth
  if (auth !== undefined)
    return `p:${sha256Base64url(JSON.stringify([auth.issuer ?? null, auth.clientId ?? null, auth.subject ?? null]))}`
  return exchange.client === undefined ? 'anonymous' : `a:${exchange.client}`
}
