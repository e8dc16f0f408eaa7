/**
 * @module cluster-messages
 * What the primary and the workers of `serveCluster` tell each other over the IPC channel, under
 * a tag of their own (the event bus uses another), so neither mistakes the other's messages.
 */

const TAG = 'tessera:cluster'

/** From a worker: it serves at `url`, or it could not start, and why. */
export type WorkerReport = { type: 'ready'; url: string } | { type: 'failed'; message: string }

/** From the primary: stop gracefully. */
export type PrimaryCommand = { type: 'stop' }

export function tagged(message: WorkerReport | PrimaryCommand): Record<string, unknown> {
  return { [TAG]: message }
}

export function untag<T extends WorkerReport | PrimaryCommand>(message: unknown): T | undefined {
  if (typeof message !== 'object' || message === null) return undefined
  const inner = (message as Record<string, unknown>)[TAG]
  return typeof inner === 'object' && inner !== null && typeof (inner as { type?: unknown }).type === 'string'
    ? (inner as T)
    : undefined
}

/** The environment variable that tells a worker how many workers the cluster runs. */
export const WORKERS_ENV = 'TESSERA_CLUSTER_WORKERS'
