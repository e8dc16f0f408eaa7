/**
 * @module health-http
 * The opt-in health probes of the HTTP faces (`health: true`): `GET /healthz` answers 200 while
 * the process answers at all; `GET /readyz` answers 200 when the keys are loaded and every store
 * and bus answers, 503 otherwise, naming each check. They carry no secret and no error text, and
 * they are answered whatever the `Host` (a load balancer probes an address, not a name).
 */
import { ProbeStatus } from '../../errors.ts'
import type { ServerDoor } from '../../server/door.ts'
import type { ResolvedHttpOptions } from './options.ts'
import { type ReplyWriter, writeFault } from './reply-writer.ts'

export const HEALTH_PATH = '/healthz'
export const READY_PATH = '/readyz'

const HEADERS = { 'cache-control': 'no-store' }

/** Whether `path` is a probe this face answers. */
export function isProbe(options: ResolvedHttpOptions, path: string): boolean {
  return options.health && (path === HEALTH_PATH || path === READY_PATH)
}

export async function serveProbe(
  door: ServerDoor,
  path: string,
  method: string,
  writer: ReplyWriter,
): Promise<void> {
  if (method !== 'GET' && method !== 'HEAD') {
    return writeFault(writer, 'TESSERA_METHOD_NOT_ALLOWED', 'Method not allowed: use GET.', {
      headers: { allow: 'GET, HEAD' },
    })
  }
  if (path === HEALTH_PATH) return writer.json(ProbeStatus.up, '{"status":"ok"}', HEADERS)
  const readiness = await door.ready()
  const body = JSON.stringify({ status: readiness.ready ? 'ready' : 'unready', checks: readiness.checks })
  writer.json(readiness.ready ? ProbeStatus.up : ProbeStatus.unready, body, HEADERS)
}
