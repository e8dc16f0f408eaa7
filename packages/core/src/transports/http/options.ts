/**
 * @module options
 * Options shared by both HTTP faces (node:http and fetch), resolved once.
 */
import { TesseraError } from '../../errors.ts'
import { positiveInteger } from '../../option-checks.ts'
import type { HeaderView } from '../../protocol/modern/header-view.ts'
import { createHostPolicy, type HostPolicy, LOCAL_HOSTS } from '../../security/http/host-origin.ts'
import type { AuthInfo } from '../../security/request-state/binding.ts'
import { BodyDeadlines } from './body-deadlines.ts'

/**
 * Thrown by `authenticate` to refuse a request: 401 (with a `WWW-Authenticate` challenge) or 403.
 * `message` is what the client reads.
 */
export class HttpAuthError extends TesseraError {
  override readonly name = 'HttpAuthError'

  constructor(
    status: 401 | 403,
    message: string,
    readonly wwwAuthenticate?: string,
  ) {
    if (status !== 401 && status !== 403) throw new RangeError('HttpAuthError status must be 401 or 403.')
    super(status === 401 ? 'TESSERA_UNAUTHORIZED' : 'TESSERA_FORBIDDEN', message)
  }
}

export interface HttpOptions {
  /** The MCP endpoint path (default `/mcp`). Other paths get 404. */
  path?: string
  /** Host names accepted in `Host`; default: the loopback names when bound to loopback, else any. */
  allowedHosts?: readonly string[]
  /** Origins accepted in `Origin`; default: any origin on an allowed host. */
  allowedOrigins?: readonly string[]
  /** Set false to turn Host/Origin validation off entirely (not recommended). */
  dnsRebindingProtection?: boolean
  /** Largest request body accepted (default 1 MiB); larger → 413. */
  maxBodyBytes?: number
  /** Largest request header block accepted (default 16 KiB); larger → 431. */
  maxHeaderBytes?: number
  /**
   * How long a request body may take to arrive once its headers have (default 10 s); longer → 408,
   * sent within a tenth of this time (at most 1 s) after it passes.
   */
  bodyTimeoutMs?: number
  /** Interval of SSE keep-alive comments on listen streams (default 15 s). */
  keepAliveMs?: number
  /** Authenticates a request; return undefined for anonymous, throw HttpAuthError to refuse. */
  authenticate?: (headers: HeaderView) => AuthInfo | undefined | Promise<AuthInfo | undefined>
}

export interface ResolvedHttpOptions {
  path: string
  policy: HostPolicy | undefined
  maxBodyBytes: number
  maxHeaderBytes: number
  bodyTimeoutMs: number
  /** The deadlines of the bodies this listener is reading, on one shared timer. */
  bodyDeadlines: BodyDeadlines
  keepAliveMs: number
  authenticate: HttpOptions['authenticate']
}

export function resolveHttpOptions(options: HttpOptions | undefined, local: boolean): ResolvedHttpOptions {
  if (options?.authenticate !== undefined && typeof options.authenticate !== 'function')
    throw new TypeError('authenticate must be a function.')
  const protect = options?.dnsRebindingProtection !== false
  const hosts = options?.allowedHosts ?? (local ? LOCAL_HOSTS : undefined)
  const bodyTimeoutMs = positiveInteger(options?.bodyTimeoutMs ?? 10_000, 'bodyTimeoutMs')
  return {
    path: options?.path ?? '/mcp',
    policy: protect
      ? createHostPolicy({ allowedHosts: hosts, allowedOrigins: options?.allowedOrigins })
      : undefined,
    maxBodyBytes: positiveInteger(options?.maxBodyBytes ?? 1024 * 1024, 'maxBodyBytes'),
    maxHeaderBytes: positiveInteger(options?.maxHeaderBytes ?? 16 * 1024, 'maxHeaderBytes'),
    bodyTimeoutMs,
    bodyDeadlines: new BodyDeadlines(bodyTimeoutMs),
    keepAliveMs: positiveInteger(options?.keepAliveMs ?? 15_000, 'keepAliveMs'),
    authenticate: options?.authenticate,
  }
}
