/**
 * @module trusted-proxies
 * What a request says of itself through the proxies in front of the server: `Forwarded` (RFC
 * 7239), or `X-Forwarded-For`, `-Host` and `-Proto`, believed only as far as a proxy named in
 * `trustProxy` wrote them. The chain is walked from the peer that connected: while the address at
 * hand is a trusted proxy, the address it forwarded for is the next; the first one that is not is
 * the client. Of `Forwarded`, the host and scheme are those the outermost trusted proxy wrote (an
 * element a client wrote itself sits further left, and is never read); of `X-Forwarded-Host` and
 * `-Proto`, the last value, the peer's. Nothing is read from a peer that is not trusted, nor when
 * no proxy is named: a proxy must set these headers, not pass on what its client sent.
 */
import type ipaddr from 'ipaddr.js'
import { ipAddresses } from '#ip-address'
import type { HeaderView } from '../../protocol/modern/header-view.ts'

/** Which peers are proxies whose forwarding headers are believed (`HttpOptions.trustProxy`). */
export type TrustProxyOption = number | readonly string[]

/** The proxies named, ready to match an address against. */
export type TrustedProxies =
  | { readonly kind: 'hops'; readonly count: number }
  | { readonly kind: 'ranges'; readonly ranges: readonly [ipaddr.IPv4 | ipaddr.IPv6, number][] }

/** What the proxies said of a request; each field only when a trusted proxy said it. */
export interface Forwarded {
  /** The client's address: the first in the chain that is not a trusted proxy. */
  readonly client: string | undefined
  /** The `Host` the client sent to the outermost trusted proxy. */
  readonly host: string | undefined
  /** The scheme the client used there (`http` or `https`). */
  readonly proto: string | undefined
}

/** How many hops of a chain are read at most: a longer chain is cut, its oldest entries unread. */
const MAX_HOPS = 32

/**
 * The proxies `option` names: a hop count (the nearest `count` peers are proxies), or addresses
 * and CIDR ranges (`10.0.0.0/8`, `::1`, `fd00::/8`). A TypeError naming the entry otherwise.
 */
export function trustedProxies(option: TrustProxyOption | undefined): TrustedProxies | undefined {
  if (option === undefined) return undefined
  if (typeof option === 'number') {
    if (!Number.isSafeInteger(option) || option < 1)
      throw new RangeError('trustProxy must be a positive hop count or a list of addresses and CIDR ranges.')
    return { kind: 'hops', count: option }
  }
  if (!Array.isArray(option) || option.length === 0)
    throw new TypeError('trustProxy must be a positive hop count or a list of addresses and CIDR ranges.')
  return { kind: 'ranges', ranges: option.map(rangeOf) }
}

function rangeOf(entry: unknown): [ipaddr.IPv4 | ipaddr.IPv6, number] {
  if (typeof entry === 'string') {
    // Loaded outside the `try`: a library that cannot be loaded is that fault, not a bad entry.
    const addresses = ipAddresses()
    try {
      if (entry.includes('/')) {
        const [address, bits] = addresses.parseCIDR(entry)
        return [normalized(address), address.kind() === 'ipv6' && isMapped(address) ? bits - 96 : bits]
      }
      const address = normalized(addresses.parse(entry))
      return [address, address.kind() === 'ipv4' ? 32 : 128]
    } catch {
      // Named below, with the rule.
    }
  }
  throw new TypeError(`trustProxy: '${String(entry).slice(0, 64)}' is not an address or a CIDR range.`)
}

/** What the proxies in front said of a request from `peer`, read from `headers`. */
export function forwardedBy(
  proxies: TrustedProxies | undefined,
  peer: string | undefined,
  headers: HeaderView,
): Forwarded {
  if (proxies === undefined || peer === undefined || !trusts(proxies, peer, 0)) return nothing(peer)
  const forwarded = headers.get('forwarded')
  const hops = forwarded === undefined ? xForwardedHops(headers) : forwardedElements(forwarded)
  // A hop is believed when its writer is trusted: the peer wrote the first, and each next one
  // was written by the address the one before it forwarded for.
  let believed = 0
  while (believed < hops.length) {
    const writer = believed === 0 ? peer : hops[believed - 1]!.for
    if (writer === undefined || !trusts(proxies, writer, believed)) break
    believed++
  }
  let host: string | undefined
  let proto: string | undefined
  for (let i = believed - 1; i >= 0 && (host === undefined || proto === undefined); i--) {
    host ??= hops[i]!.host
    proto ??= hops[i]!.proto
  }
  return { client: believed === 0 ? peer : (hops[believed - 1]!.for ?? peer), host, proto }
}

/** What one hop wrote: the address it forwarded for, and the host and scheme it was asked for. */
interface Hop {
  for?: string
  host?: string
  proto?: string
}

/**
 * The hops of `X-Forwarded-For`, nearest first (each proxy appends the address it forwarded
 * for). `X-Forwarded-Host` and `-Proto` are one statement, the peer's: their last value.
 */
function xForwardedHops(headers: HeaderView): Hop[] {
  const fors = list(headers.get('x-forwarded-for')).slice(-MAX_HOPS).reverse()
  const hops: Hop[] = fors.map((address) => ({ for: address }))
  const host = list(headers.get('x-forwarded-host')).at(-1)
  const proto = list(headers.get('x-forwarded-proto')).at(-1)?.toLowerCase()
  if (host === undefined && proto === undefined) return hops
  const first: Hop = hops[0] ?? {}
  if (host !== undefined) first.host = host
  if (proto !== undefined) first.proto = proto
  hops[0] = first
  return hops
}

function list(value: string | undefined): string[] {
  if (value === undefined) return []
  return value
    .split(',', MAX_HOPS * 2)
    .map((item) => item.trim())
    .filter((item) => item !== '')
}

/** RFC 7239 elements, nearest first: `for=…;host=…;proto=…`, quoted strings unquoted. */
function forwardedElements(value: string): Hop[] {
  const elements = value.split(',', MAX_HOPS * 2).slice(-MAX_HOPS)
  const hops: Hop[] = []
  for (let i = elements.length - 1; i >= 0; i--) {
    const hop: Hop = {}
    for (const pair of elements[i]!.split(';')) {
      const equals = pair.indexOf('=')
      if (equals < 0) continue
      const name = pair.slice(0, equals).trim().toLowerCase()
      const raw = pair.slice(equals + 1).trim()
      const text = raw.startsWith('"') && raw.endsWith('"') && raw.length >= 2 ? raw.slice(1, -1) : raw
      if (name === 'for') hop.for = nodeAddress(text)
      else if (name === 'host') hop.host = text
      else if (name === 'proto') hop.proto = text.toLowerCase()
    }
    hops.push(hop)
  }
  return hops
}

/** The address of an RFC 7239 node (`192.0.2.1:4711`, `[2001:db8::1]:80`); obfuscated ones as sent. */
function nodeAddress(node: string): string {
  if (node.startsWith('[')) {
    const end = node.indexOf(']')
    return end > 0 ? node.slice(1, end) : node
  }
  const colon = node.indexOf(':')
  return colon > 0 && node.indexOf(':', colon + 1) < 0 ? node.slice(0, colon) : node
}

/** Whether the writer of hop `index` (0: the peer) at `address` is a trusted proxy. */
function trusts(proxies: TrustedProxies, address: string, index: number): boolean {
  if (proxies.kind === 'hops') return index < proxies.count
  const addresses = ipAddresses()
  if (!addresses.isValid(address)) return false
  const parsed = normalized(addresses.parse(address))
  for (const [range, bits] of proxies.ranges)
    if (range.kind() === parsed.kind() && parsed.match(range as never, bits)) return true
  return false
}

/** An IPv4 address written as IPv6 (`::ffff:10.0.0.1`, as a dual-stack socket reports it) is IPv4. */
function normalized(address: ipaddr.IPv4 | ipaddr.IPv6): ipaddr.IPv4 | ipaddr.IPv6 {
  return address.kind() === 'ipv6' && isMapped(address) ? (address as ipaddr.IPv6).toIPv4Address() : address
}

function isMapped(address: ipaddr.IPv4 | ipaddr.IPv6): boolean {
  return address.kind() === 'ipv6' && (address as ipaddr.IPv6).isIPv4MappedAddress()
}

function nothing(peer: string | undefined): Forwarded {
  return { client: peer, host: undefined, proto: undefined }
}
