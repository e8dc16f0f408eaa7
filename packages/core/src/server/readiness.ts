/**
 * @module readiness
 * Whether this server can serve: its requestState keys are loaded and every store and bus it was
 * given answers. Each check is one cheap read (a probe key that never exists), bounded in time,
 * so a stalled dependency makes the server unready within a second instead of hanging the probe.
 * The answer names each check and whether it passed, never why (no host, no error text).
 */
import { withTimeout } from '../security/replay/replay-store.ts'
import type { Stores } from './stores.ts'

export interface Readiness {
  ready: boolean
  checks: Record<string, 'ok' | 'down'>
}

/** How long one check may take before it counts as down. */
const CHECK_TIMEOUT_MS = 1000
const PROBE = 'tessera-readiness-probe'

export async function checkReadiness(stores: Stores, keysLoaded: boolean): Promise<Readiness> {
  const probes: Array<[string, () => Promise<unknown>]> = []
  if (stores.replay) probes.push(['stores.replay', () => stores.replay!.inspect(PROBE)])
  if (stores.sessions) probes.push(['stores.sessions', () => stores.sessions!.get(PROBE)])
  if (stores.tasks) probes.push(['stores.tasks', () => stores.tasks!.get(PROBE)])
  const bus = stores.bus as { ready?: () => Promise<unknown> } | undefined
  if (typeof bus?.ready === 'function') probes.push(['stores.bus', () => bus.ready!()])
  const checks: Readiness['checks'] = { 'requestState.keys': keysLoaded ? 'ok' : 'down' }
  const results = await Promise.all(
    probes.map(([, probe]) =>
      withTimeout('readiness', Promise.resolve().then(probe), CHECK_TIMEOUT_MS).then(
        () => 'ok' as const,
        () => 'down' as const,
      ),
    ),
  )
  for (const [index, [name]] of probes.entries()) checks[name] = results[index]!
  return { ready: Object.values(checks).every((check) => check === 'ok'), checks }
}
