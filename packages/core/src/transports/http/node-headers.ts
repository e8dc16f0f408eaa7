/**
 * @module node-headers
 * `HeaderView` over a node:http request. Node joins repeated unknown headers with ", ", which
 * would hide a repeated mirror, and keeps only the first `Host`, which would hide a second one;
 * repetition is therefore read from `rawHeaders`, lazily and only for the `mcp-*` names and
 * `host`, the ones ever asked about. `requestHost` gives that reading of `Host` to code beside
 * the endpoint.
 */
import type { IncomingMessage } from 'node:http'
import type { HeaderView } from '../../protocol/modern/header-view.ts'
import { type HostReading, readHost } from '../../security/http/host-origin.ts'

/**
 * What the `Host` of a node:http request names, read exactly as the MCP endpoint reads it (a
 * second `Host`, which node drops, found in the raw headers): for what else a node server serves
 * beside the endpoint, such as the development console, so it accepts no `Host` the endpoint
 * refuses.
 */
export function requestHost(req: IncomingMessage): HostReading {
  return readHost(nodeHeaderView(req))
}

/**
 * The headers of `req` as the server reads them. A plain object over a closure rather than a
 * class: every header check of every request calls it through `HeaderView`, where a private
 * field read costs measurably more than a captured variable.
 */
export function nodeHeaderView(req: IncomingMessage): HeaderView {
  let repeated: Set<string> | undefined
  return {
    get(name: string): string | undefined {
      const value = req.headers[name]
      if (value === undefined) return undefined
      return Array.isArray(value) ? value.join(', ') : value
    },
    isRepeated(name: string): boolean {
      const value = req.headers[name]
      if (value === undefined) return false
      // Node joins a repeated unknown header with ", ": without a comma it was sent once. A second
      // Host is dropped instead, so only the raw headers tell.
      if (name === 'host') return sentTwice(req.rawHeaders, 'host')
      if (typeof value === 'string' && !value.includes(',')) return false
      repeated ??= countRepeats(req.rawHeaders)
      return repeated.has(name)
    },
  }
}

/** Whether the header `name` (lowercase) is among `raw` more than once. */
function sentTwice(raw: string[], name: string): boolean {
  let seen = 0
  for (let i = 0; i < raw.length; i += 2) {
    const sent = raw[i]!
    // Only a name of the right length is lowercased: no string is made for the others.
    if (sent.length === name.length && (sent === name || sent.toLowerCase() === name) && ++seen > 1)
      return true
  }
  return false
}

function countRepeats(raw: string[]): Set<string> {
  const seen = new Set<string>()
  const repeated = new Set<string>()
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!.toLowerCase()
    if (!name.startsWith('mcp-')) continue
    if (seen.has(name)) repeated.add(name)
    seen.add(name)
  }
  return repeated
}
