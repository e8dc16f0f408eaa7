/**
 * @module options
 * Options shared by both HTTP faces (node:http and fetch), resolved once.
 */
import { TesseraError } from '../../errors.ts'
import { type OptionNames, positiveInteger } from '../../option-checks.ts'
import type { HeaderView } from '../../protocol/modern/header-view.ts'
import { createHostPolicy, type HostPolicy, LOCAL_HOSTS } from '../../security/http/host-origin.ts'
import { type TrustedProxies, trustedProxies } from '../../security/http/trusted-proxies.ts'
import type { AuthInfo } from '../../security/request-state/binding.ts'
import { BodyDeadlines } from './body-deadlines.ts'

/** Under `Bun.serve`'s default idle timeout (10 s): a waiting stream must show life before it. */
const DEFAULT_KEEP_ALIVE_MS = 8_000

const AUTH_CODES = {
  400: 'TESSERA_INVALID_REQUEST',
  401: 'TESSERA_UNAUTHORIZED',
  403: 'TESSERA_FORBIDDEN',
} as const

/**
 * Thrown by an authenticator to refuse a request: 400 (a malformed `Authorization`), 401 (with a
 * `WWW-Authenticate` challenge) or 403. `message` is what the client reads.
 */
export class HttpAuthError extends TesseraError {
  override readonly name = 'HttpAuthError'

  constructor(
    status: 400 | 401 | 403,
    message: string,
    readonly wwwAuthenticate?: string,
    /** Further headers of the refusal (a `DPoP-Nonce` to retry with). */
    readonly headers?: Readonly<Record<string, string>>,
  ) {
    if (status !== 400 && status !== 401 && status !== 403)
      throw new RangeError('HttpAuthError status must be 400, 401 or 403.')
    super(AUTH_CODES[status], message)
  }
}

/** What an authenticator sees of a request. */
export interface HttpAuthRequest {
  /** The HTTP method (`POST`, `GET`, `DELETE`). */
  readonly method: string
  /** The request target as the client sent it: the path and the query, if any (`/mcp?a=1`). */
  readonly target: string
  readonly headers: HeaderView
}

/**
 * Authentication for both HTTP faces: `oauthResourceServer()` of `@tessera/auth`, or an object
 * of your own with an `authenticate` method.
 */
export interface HttpAuthenticator {
  /** The caller of a request: undefined for anonymous; throw `HttpAuthError` to refuse. */
  authenticate(request: HttpAuthRequest): AuthInfo | undefined | Promise<AuthInfo | undefined>
  /**
   * JSON documents answered on GET at these paths, beside the endpoint (OAuth Protected Resource
   * Metadata), without authentication.
   */
  readonly documents?: Readonly<Record<string, unknown>>
  /**
   * The `WWW-Authenticate` value of a call by `auth` refused for lack of `scopes` (all the call
   * needs).
   */
  insufficientScope?(scopes: readonly string[], auth: AuthInfo | undefined): string
}

/**
 * The options every HTTP face shares (`listen`, `createNodeListener`, `createFetchHandler`): the
 * endpoint's path, the Host and Origin checks, limits on size, time and concurrency,
 * authentication, and the health probes.
 */
export interface HttpOptions {
  /** The MCP endpoint path (default `/mcp`). Other paths get 404. */
  path?: string
  /**
   * Host names accepted in `Host` (or, from a trusted proxy, in `X-Forwarded-Host` or
   * `Forwarded`); `*.example.com` accepts every subdomain of example.com. Default: the loopback
   * names when bound to loopback, else any.
   */
  allowedHosts?: readonly string[]
  /** Origins accepted in `Origin`; default: any origin on an allowed host. */
  allowedOrigins?: readonly string[]
  /** Set false to turn Host/Origin validation off entirely (not recommended). */
  dnsRebindingProtection?: boolean
  /**
   * The reverse proxies in front of the server, whose `Forwarded` or `X-Forwarded-For`, `-Host`
   * and `-Proto` are believed: their addresses and CIDR ranges (`['10.0.0.0/8', '::1']`), or how
   * many hops in front are proxies. The Host check then reads the host the client asked the
   * outermost proxy for, and the client's address is the first in the chain that is not a
   * proxy. Default: none, and those headers are never read.
   */
  trustProxy?: number | readonly string[]
  /** Largest request body accepted (default 1 MiB); larger → 413. */
  maxBodyBytes?: number
  /** Largest request header block accepted (default 16 KiB); larger → 431. */
  maxHeaderBytes?: number
  /**
   * How long a request body may take to arrive once its headers have (default 10 s); longer → 408,
   * sent within a tenth of this time (at most 1 s) after it passes.
   */
  bodyTimeoutMs?: number
  /**
   * Interval of SSE keep-alive comments on streams that wait (listen streams, a 2025-11-25
   * question): default 8 s, under the shortest idle timeout of the runtimes served (`Bun.serve`
   * cuts a response idle for 10 s).
   */
  keepAliveMs?: number
  /**
   * Requests answered at once by the node listener, listen streams and GET streams not counted
   * (default 256); beyond it → 503 with `Retry-After: 1`, so a burst is shed before it queues
   * up behind the event loop. Every POST counts from its arrival; a 2026-07-28
   * `subscriptions/listen` gives its slot back once the server accepted it and its stream opened.
   * The fetch face does not count: a runtime that hosts it has its own limits.
   */
  maxConcurrentRequests?: number
  /** Authenticates every request (see `HttpAuthenticator`); default: everyone is anonymous. */
  auth?: HttpAuthenticator
  /**
   * Answer the health probes at the root: `GET /healthz` (the process answers) and `GET /readyz`
   * (keys loaded, every store and bus reachable; 503 otherwise). Default false.
   */
  health?: boolean
}

/** The names of `HttpOptions`, which every HTTP face checks its options against. */
export const HTTP_OPTION_NAMES = {
  path: true,
  allowedHosts: true,
  allowedOrigins: true,
  dnsRebindingProtection: true,
  trustProxy: true,
  maxBodyBytes: true,
  maxHeaderBytes: true,
  bodyTimeoutMs: true,
  keepAliveMs: true,
  maxConcurrentRequests: true,
  auth: true,
  health: true,
} as const satisfies OptionNames<HttpOptions>

export interface ResolvedHttpOptions {
  path: string
  policy: HostPolicy | undefined
  /** The proxies named in `trustProxy`; undefined when none is. */
  proxies: TrustedProxies | undefined
  maxBodyBytes: number
  maxHeaderBytes: number
  bodyTimeoutMs: number
  /** The deadlines of the bodies this listener is reading, on one shared timer. */
  bodyDeadlines: BodyDeadlines
  keepAliveMs: number
  maxConcurrentRequests: number
  auth: HttpAuthenticator | undefined
  /** The authenticator's documents by path, encoded once. */
  documents: ReadonlyMap<string, string>
  health: boolean
}

export function resolveHttpOptions(options: HttpOptions | undefined, local: boolean): ResolvedHttpOptions {
  const auth = options?.auth
  if (auth !== undefined && typeof auth?.authenticate !== 'function')
    throw new TypeError('auth must be an object with an authenticate(request) method.')
  const protect = options?.dnsRebindingProtection !== false
  const hosts = options?.allowedHosts ?? (local ? LOCAL_HOSTS : undefined)
  const bodyTimeoutMs = positiveInteger(options?.bodyTimeoutMs ?? 10_000, 'bodyTimeoutMs')
  return {
    path: options?.path ?? '/mcp',
    policy: protect
      ? createHostPolicy({ allowedHosts: hosts, allowedOrigins: options?.allowedOrigins })
      : undefined,
    proxies: trustedProxies(options?.trustProxy),
    maxBodyBytes: positiveInteger(options?.maxBodyBytes ?? 1024 * 1024, 'maxBodyBytes'),
    maxHeaderBytes: positiveInteger(options?.maxHeaderBytes ?? 16 * 1024, 'maxHeaderBytes'),
    bodyTimeoutMs,
    bodyDeadlines: new BodyDeadlines(bodyTimeoutMs),
    keepAliveMs: positiveInteger(options?.keepAliveMs ?? DEFAULT_KEEP_ALIVE_MS, 'keepAliveMs'),
    maxConcurrentRequests: positiveInteger(options?.maxConcurrentRequests ?? 256, 'maxConcurrentRequests'),
    auth,
    documents: encodedDocuments(auth?.documents),
    health: options?.health === true,
  }
}

function encodedDocuments(documents: HttpAuthenticator['documents']): ReadonlyMap<string, string> {
  const encoded = new Map<string, string>()
  for (const [path, document] of Object.entries(documents ?? {})) {
    if (!path.startsWith('/')) throw new TypeError(`auth document path '${path}' must start with '/'.`)
    encoded.set(path, JSON.stringify(document))
  }
  return encoded
}
