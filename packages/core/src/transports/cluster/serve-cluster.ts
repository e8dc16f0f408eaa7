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
import type { Logger, McpServer } from '../../server/door.ts'
import { LISTEN_OPTION_NAMES, type ListenOptions } from '../http/listen.ts'
import { runPrimary } from './cluster-primary.ts'
import { runWorker } from './cluster-worker.ts'

export interface ClusterOptions extends ListenOptions {
  /** How many workers serve (default: the machine's available parallelism). */
  workers?: number
  /** Builds the server, in each worker. */
  server: (worker: { id: number }) => McpServer | Promise<McpServer>
  /** Runs once, in the primary, before any worker starts: key files, migrations, seeds. */
  prepare?: () => void | Promise<void>
  /** Runs in each worker after its server closed: releases what the server does not own. */
  onWorkerClose?: () => void | Promise<void>
  /** Wait before replacing a worker that died (default 1 s; doubles while replacements fail to start). */
  restartDelayMs?: number
  /** Stop gracefully on SIGINT and SIGTERM (default true). */
  handleSignals?: boolean
  /**
   * Where the primary and each worker report starts, deaths and stops. Default: pino on stderr, at
   * `info` in the primary (one line once every worker listens, with their number and the URL; a
   * replacement; the stop) and at `warn` in the workers; `TESSERA_LOG_LEVEL` sets both.
   */
  logger?: Logger
}

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

export interface RunningCluster {
  /** Which process this handle lives in: the same script runs in the primary and in every worker. */
  readonly role: 'primary' | 'worker'
  readonly url: string
  readonly workers: number
  /**
   * In the primary: stops every worker gracefully (each lets its requests finish for
   * `shutdownGraceMs`, then closes its stores). In a worker: closes this worker's server.
   */
  close(): Promise<void>
}

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

export type ClusterSettings = ClusterOptions & {
  workers: number
  restartDelayMs: number
  handleSignals: boolean
}
