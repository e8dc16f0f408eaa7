/**
 * @module loopback
 * The console answers only a browser on this machine that addresses it by a loopback name: a
 * `Host` of localhost, 127.0.0.1 or [::1] (any port), and an `Origin`, when one is sent, naming
 * that same host and port over http. Anything else is refused before any route, so a page on
 * another site (DNS rebinding, a cross-site fetch) learns nothing of what the server does.
 */
const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '[::1]'])

/** Why a request is refused, or undefined when it may be served. */
export function foreignRequest(host: string | undefined, origin: string | undefined): string | undefined {
  if (host === undefined) return 'Host is missing'
  const name = hostName(host)
  if (name === undefined || !LOOPBACK_NAMES.has(name)) return 'Host is not a loopback name'
  if (origin === undefined) return undefined
  return origin.toLowerCase() === `http://${host.toLowerCase()}` ? undefined : 'Origin is not this console'
}

function hostName(host: string): string | undefined {
  const match = /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+)(?::(\d{1,5}))?$/.exec(host)
  return match?.[1]?.toLowerCase()
}
