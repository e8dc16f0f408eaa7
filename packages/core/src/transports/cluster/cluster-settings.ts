/**
 * @module cluster-settings
 * What `serveCluster` is given, what it returns, and the settings the primary and the workers
 * share once the options are checked.
 */
import type { Logger } from '../../observation/logger.ts'
import type { McpServer } from '../../server/door.ts'
import type { ListenOptions } from '../http/listen.ts'

/**
 * What `serveCluster` is given: the `listen` options every worker serves with, the function that
 * builds each worker's server, and how the primary starts, replaces and stops the workers.
 */
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

/** What `serveCluster` resolves with, in the primary and in each worker: where it serves, and how to stop. */
export interface RunningCluster {
  /** Which process this handle lives in: the same script runs in the primary and in every worker. */
  readonly role: 'primary' | 'worker'
  /** The URL of the MCP endpoint the workers share. */
  readonly url: string
  /** How many workers serve. */
  readonly workers: number
  /**
   * In the primary: stops every worker gracefully (each lets its requests finish for
   * `shutdownGraceMs`, then closes its stores). In a worker: closes this worker's server.
   */
  close(): Promise<void>
}

export type ClusterSettings = ClusterOptions & {
  workers: number
  restartDelayMs: number
  handleSignals: boolean
}
