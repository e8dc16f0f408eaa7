/**
 * @module host-origin
 * DNS-rebinding protection: a page on evil.example can make a browser reach a server on 127.0.0.1,
 * but it cannot make the browser send `Host: 127.0.0.1` or a local `Origin`. So a local server
 * refuses any request whose Host or Origin names another host (HTTP 403).
 */

export interface HostPolicy {
  /** Allowed host names (no port), lowercase; undefined = any host. */
  readonly hosts: ReadonlySet<string> | undefined
  /** Allowed origins (`scheme://host[:port]`); undefined = any origin whose host is allowed. */
  readonly origins: ReadonlySet<string> | undefined
}

export const LOCAL_HOSTS: readonly string[] = ['localhost', '127.0.0.1', '[::1]', '::1']

export type HostCheck = 'ok' | 'bad-host' | 'bad-origin'

export function createHostPolicy(options: {
  allowedHosts?: readonly string[]
  allowedOrigins?: readonly string[]
}): HostPolicy {
  return {
    hosts: options.allowedHosts ? new Set(options.allowedHosts.map((h) => h.toLowerCase())) : undefined,
    origins: options.allowedOrigins ? new Set(options.allowedOrigins.map((o) => o.toLowerCase())) : undefined,
  }
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
    if (host === undefined || !policy.hosts.has(hostnameOf(host))) return 'bad-host'
  }
  if (origin === undefined) return 'ok'
  const normalized = origin.toLowerCase()
  if (policy.origins !== undefined) return policy.origins.has(normalized) ? 'ok' : 'bad-origin'
  if (policy.hosts === undefined) return 'ok'
  let parsed: URL
  try {
    parsed = new URL(normalized)
  } catch {
    return 'bad-origin'
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return 'bad-origin'
  return policy.hosts.has(parsed.hostname) ? 'ok' : 'bad-origin'
}

/** `Host` without its port; keeps IPv6 brackets. */
function hostnameOf(host: string): string {
  const h = host.trim().toLowerCase()
  if (h.startsWith('[')) {
    const end = h.indexOf(']')
    return end === -1 ? h : h.slice(0, end + 1)
  }
  const colon = h.indexOf(':')
  return colon === -1 ? h : h.slice(0, colon)
}
