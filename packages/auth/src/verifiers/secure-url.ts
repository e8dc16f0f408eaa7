/**
 * @module secure-url
 * Where keys and token answers may come from: https, or plain http to this machine only. Keys
 * fetched over plain http from elsewhere could be swapped on the way, and a swapped key set
 * accepts any token its swapper signs; an introspection request carries the token itself.
 */

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]'])

/** `url` when it is https or loopback http; a TypeError naming `what` otherwise. */
export function secureUrl(url: URL, what: string): URL {
  if (url.protocol === 'https:') return url
  if (url.protocol === 'http:' && (LOOPBACK.has(url.hostname) || /^127\.\d+\.\d+\.\d+$/.test(url.hostname)))
    return url
  throw new TypeError(`${what} must be an https URL (plain http is accepted for loopback addresses only).`)
}
