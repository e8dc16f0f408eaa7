/**
 * @module serve-cluster
 * `serveCluster`: one server on several node:cluster workers sharing one port. The primary
 * prepares once, forks, relays the event bus, replaces workers that die and stops them all
 * gracefully; each worker builds the server, refuses to start when it would keep in its own
 * memory what the workers must share, and serves it with `listen`.
 */
import cluster from 'node:cluster'
import { availableParallelism } from 'node:os'
import { assertKnownOptions, type OptionNames, positiveInteger } from '../../option-checks.ts'
import { LISTEN_OPTION_NAMES } from '../http/listen.ts'
import { runPrimary } from './cluster-primary.ts'
import type { ClusterOptions, RunningCluster } from './cluster-settings.ts'
import { runWorker } from './cluster-worker.ts'

const CLUSTER_OPTION_NAMES = {
  ...LISTEN_OPTION_NAMES,
  workers: true,
  server: true,
  prepare: true,
  onWorkerClose: true,
  restartDelayMs: true,
  handleSignals: true,
  logger: true,
} as const satisfies OptionNames<ClusterOptions>

/**
 * Serves the server `options.server` builds on `workers` processes. Call it from the entry
 * script: in the primary it resolves once every worker listens; in a worker, once that worker
 * does. A worker that fails to start at first stops the cluster and rejects the primary's promise
 * with the worker's reason.
 */
export function serveCluster(options: ClusterOptions): Promise<RunningCluster> {
  assertKnownOptions(options, CLUSTER_OPTION_NAMES, 'serveCluster', { required: true })
  if (typeof options?.server !== 'function') throw new TypeError('serveCluster needs a server() function.')
  const workers = positiveInteger(options.workers ?? availableParallelism(), 'workers')
  const restartDelayMs = positiveInteger(options.restartDelayMs ?? 1_000, 'restartDelayMs')
  const settings = { ...options, workers, restartDelayMs, handleSignals: options.handleSignals !== false }
  return cluster.isWorker ? runWorker(settings) : runPrimary(settings)
}
