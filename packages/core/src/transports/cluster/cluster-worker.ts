/**
 * @module cluster-worker
 * A worker of `serveCluster`: builds the server, refuses to serve when it would keep in its own
 * memory what the workers must share, listens on the port the workers share, and stops
 * gracefully on the primary's word or a signal: requests in flight finish, stores close, then the
 * process exits.
 */
import cluster from 'node:cluster'
import { defaultLogger } from '../../observation/pino-logger.ts'
import { doorOf } from '../../server/door.ts'
import { listen, type RunningServer } from '../http/listen.ts'
import { type PrimaryCommand, tagged, untag, WORKERS_ENV, type WorkerReport } from './cluster-messages.ts'
import type { ClusterSettings, RunningCluster } from './cluster-settings.ts'

const STOP_MARGIN_MS = 5_000

export async function runWorker(settings: ClusterSettings): Promise<RunningCluster> {
  const {
    workers: configured,
    server,
    prepare: _prepare,
    onWorkerClose,
    restartDelayMs: _delay,
    handleSignals,
    logger: given,
    ...listenOptions
  } = settings
  const logger = given ?? defaultLogger()
  const id = cluster.worker?.id ?? 0
  const workers = Number(process.env[WORKERS_ENV]) || configured
  let stopRequested = false
  let stopAndExit = (): void => {
    stopRequested = true
  }
  const onMessage = (message: unknown): void => {
    if (untag<PrimaryCommand>(message)?.type === 'stop') stopAndExit()
  }
  process.on('message', onMessage)

  let running: RunningServer
  try {
    const app = await server({ id })
    const local = workers > 1 ? doorOf(app, 'serveCluster').processLocal() : []
    if (local.length > 0) {
      throw new TypeError(
        `serveCluster: ${workers} workers must share ${local.join(', ')}, but this server keeps them in its own memory. ` +
          'Give it requestState keys every worker reads and shared stores (sqliteStores, redisStores or postgresStores).',
      )
    }
    running = await listen(app, listenOptions)
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error)
    await report({ type: 'failed', message })
    throw error
  }

  let closing: Promise<void> | undefined
  const close = (): Promise<void> => {
    closing ??= (async () => {
      await running.close()
      await onWorkerClose?.()
    })()
    return closing
  }
  let exiting = false
  stopAndExit = () => {
    if (exiting) return
    exiting = true
    const force = setTimeout(
      () => {
        logger.error({ event: 'worker_stop_forced', worker: id }, 'worker still stopping: exiting')
        process.exit(1)
      },
      (listenOptions.shutdownGraceMs ?? 5_000) + STOP_MARGIN_MS,
    )
    force.unref()
    // Exit once stopped: a handle the application forgot (a pool, a timer) must not keep it alive.
    close().then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error({ event: 'worker_stop_failed', worker: id, err: error }, 'worker stop failed')
        process.exit(1)
      },
    )
  }
  if (handleSignals) process.on('SIGINT', stopAndExit).on('SIGTERM', stopAndExit)
  if (stopRequested) stopAndExit()
  else await report({ type: 'ready', url: running.url })
  return { role: 'worker', url: running.url, workers, close }
}

/** Sends a report to the primary and waits until it left this process. */
function report(message: WorkerReport): Promise<void> {
  return new Promise((resolve) => {
    if (!process.connected || process.send === undefined) return resolve()
    process.send(tagged(message), undefined, {}, () => resolve())
  })
}
