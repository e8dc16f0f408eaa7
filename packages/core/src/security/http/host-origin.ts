/**
 * @module host-origin
 * DNS-rebinding protection: a page on evil.example can make a browser reach a server on 127.0.0.1,
 * but it cannot make the browser send `Host: 127.0.0.1` or a local `Origin`. So a local server
 * refuses any request whose Host or Origin names another host (HTTP 403). The one reading of a
 * request's `Host` (`readHost`) is also the development console's, so neither accepts a `Host`
 * the other refuses.
 */
import type { HeaderView } from '../../protocol/modern/header-view.ts'
import { StringVerdicts } from '../../string-verdicts.ts'

export interface HostPolicy {
  /** Allowed host names (no port), lowercase; undefined = any host. */
  readonly hosts: ReadonlySet<string> | undefined
  /** The domains whose every subdomain is allowed (`*.example.com` gives `.example.com`). */
  readonly subdomainsOf: readonly string[]
  /** Allowed origins (`scheme://host[:port]`); undefined = any origin whose host is allowed. */
  readonly origins: ReadonlySet<string> | undefined
}

export const LOCAL_HOSTS: readonly string[] = ['localhost', '127.0.0.1', '[::1]', '::1']

export type HostCheck = 'ok' | 'bad-host' | 'bad-origin'

/**
 * The policy of `allowedHosts` (names, or `*.example.com` for every subdomain of a domain, not the
 * domain itself) and `allowedOrigins`. A TypeError naming an entry that is neither.
 */
export function createHostPolicy(options: {
  allowedHosts?: readonly string[]
  allowedOrigins?: readonly string[]
}): HostPolicy {
  const hosts = options.allowedHosts?.map((host) => String(host).toLowerCase())
  const subdomainsOf: string[] = []
  for (const host of hosts ?? []) {
    if (!host.startsWith('*.')) continue
    if (hostnameOf(host.slice(2)) !== host.slice(2) || host.slice(2).startsWith('['))
      throw new TypeError(`allowedHosts: '${host.slice(0, 64)}' is not a host name or *.domain.`)
    subdomainsOf.push(host.slice(1))
  }
  return {
    hosts: hosts ? new Set(hosts.filter((host) => !host.startsWith('*.'))) : undefined,
    subdomainsOf,
    origins: options.allowedOrigins ? new Set(options.allowedOrigins.map((o) => o.toLowerCase())) : undefined,
  }
}

/** Whether host name `name` (lowercase, no port) is one the policy allows. */
function allows(policy: HostPolicy, name: string): boolean {
  if (policy.hosts === undefined || policy.hosts.has(name)) return true
  for (const suffix of policy.subdomainsOf)
    if (name.length > suffix.length && name.endsWith(suffix)) return true
  return false
}

export function isLoopbackAddress(address: string): boolean {
  return address === 'localhost' || address === '::1' || address === '[::1]' || address.startsWith('127.')
}

export function checkHostAndOrigin(
  policy: HostPolicy,
  host: string | undefined,
  origin: string | undefined,
): HostCheck {
  if (policy.hosts !== undefined) {
    const name = host === undefined ? undefined : hostnameOf(host)
    if (name === undefined || !allows(policy, name)) return 'bad-host'
  }
  if (origin === undefined) return 'ok'
  const normalized = origin.toLowerCase()
  if (policy.origins !== undefined) return policy.origins.has(normalized) ? 'ok' : 'bad-origin'
  if (policy.hosts === undefined) return 'ok'
  const parsed = originOf(normalized)
  return parsed !== undefined && allows(policy, parsed.hostname) ? 'ok' : 'bad-origin'
}

/**
 * What a request's `Host` names: nothing (absent), nothing knowable (malformed, with the sentence
 * that says why), or a host: its name (lowercase, an IPv6 literal in brackets, no port) and the
 * value as it was sent.
 */
export type HostReading =
  | { readonly kind: 'absent' }
  | {
      readonly kind: 'malformed'
      readonly problem: 'Host was sent more than once' | 'Host is not a host and port'
    }
  | { readonly kind: 'host'; readonly name: string; readonly value: string }

const ABSENT: HostReading = { kind: 'absent' }
const REPEATED: HostReading = { kind: 'malformed', problem: 'Host was sent more than once' }
const NOT_A_HOST: HostReading = { kind: 'malformed', problem: 'Host is not a host and port' }

/**
 * Reads the `Host` of a request. A `Host` sent twice names no host, whichever comes first: which
 * of two hosts was meant cannot be known, and a check of one while the application or a proxy
 * uses the other would check nothing. The same for a value that is not a host and an optional
 * port (a port past 65535 included).
 */
export function readHost(headers: HeaderView): HostReading {
  const value = headers.get('host')
  if (value === undefined) return ABSENT
  if (headers.isRepeated('host')) return REPEATED
  const name = hostnameOf(value)
  return name === undefined ? NOT_A_HOST : { kind: 'host', name, value }
}

/**
 * The host name of a `Host` header value (IPv6 in brackets), or undefined when the value is not a
 * host and an optional port, exactly: `[::1]evil.example` and `localhost:evil` are not.
 */
export function hostnameOf(host: string): string | undefined {
  return hostnames.of(host)
}

// A server is reached under a few Host values, sent on every request: their verdicts are kept,
// and no more of them than this, whatever a client invents.
const MAX_REMEMBERED_HOSTS = 256
const hostnames = new StringVerdicts(MAX_REMEMBERED_HOSTS, parseHostname)

function parseHostname(host: string): string | undefined {
  const match = HOST.exec(host.trim().toLowerCase())
  if (match === null) return undefined
  const port = match[3]
  if (port !== undefined && Number(port) > 65_535) return undefined
  return match[1] ?? match[2]
}

/** An IPv6 literal in brackets, or a registered name or IPv4 address; then an optional port. */
const HOST = /^(?:(\[[0-9a-f:.]+\])|([a-z0-9](?:[a-z0-9._-]*[a-z0-9])?))(?::(\d{1,5}))?$/

/**
 * A serialized origin (`scheme://host[:port]`, http or https), or undefined: an `Origin` with a
 * path, a query, credentials or any other scheme is no origin.
 */
function originOf(origin: string): URL | undefined {
  let parsed: URL
  try {
    parsed = new URL(origin)
  } catch {
    return undefined
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return undefined
  return parsed.origin === origin ? parsed : undefined
}
