/**
 * @module loopback
 * The console answers only a browser on this machine that addresses it by a loopback name: a
 * `Host` of localhost, 127.0.0.1 or [::1] (any port), and an `Origin`, when one is sent, naming
 * that same host and port over http. Anything else is refused before any route, so a page on
 * another site (DNS rebinding, a cross-site fetch) learns nothing of what the server does. The
 * `Host` is read by core's `requestHost`, the MCP endpoint's own reading: a `Host` sent twice or
 * that is not a host and port is refused here as it is there (400), never taken for a loopback
 * name.
 */
import type { IncomingMessage } from 'node:http'
import { requestHost } from '@tessera/core/http'
import { wireMappings } from '@tessera/core/protocol'

const BAD_REQUEST = wireMappings.TESSERA_INVALID_REQUEST.http
const FORBIDDEN = wireMappings.TESSERA_FORBIDDEN.http
const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '[::1]'])

/** A request the console will not serve: the status and the sentence it is answered with. */
export interface Refusal {
  status: typeof BAD_REQUEST | typeof FORBIDDEN
  error: string
}

/** Why a request is refused, or undefined when it may be served. */
export function foreignRequest(req: IncomingMessage): Refusal | undefined {
  const host = requestHost(req)
  if (host.kind === 'malformed') return { status: BAD_REQUEST, error: `Bad request: ${host.problem}.` }
  if (host.kind === 'absent') return forbidden('Host is missing')
  if (!LOOPBACK_NAMES.has(host.name)) return forbidden('Host is not a loopback name')
  const origin = req.headers.origin
  if (origin === undefined) return undefined
  return origin.toLowerCase() === `http://${host.value.trim().toLowerCase()}`
    ? undefined
    : forbidden('Origin is not this console')
}

function forbidden(reason: string): Refusal {
  return { status: FORBIDDEN, error: `Forbidden: ${reason}; the console answers loopback requests only.` }
}
