/**
 * @module cluster-primary
 * The primary of `serveCluster`: prepares once, relays the event bus, forks the workers, replaces
 * those that die, and stops them all gracefully. It serves no request itself.
 */
import cluster, { type Worker } from 'node:cluster'
import { defaultLogger } from '../../observation/pino-logger.ts'
import { type PrimaryCommand, tagged, untag, WORKERS_ENV, type WorkerReport } from './cluster-messages.ts'
import { relayClusterBus } from './cluster-relay.ts'
import type { ClusterSettings, RunningCluster } from './cluster-settings.ts'

/** Longest wait before replacing a worker whose replacements keep failing to start. */
const MAX_RESTART_DELAY_MS = 30_000
/** Beyond its own grace period, how long a stopping worker may take before it is killed. */
const STOP_MARGIN_MS = 5_000

export async function runPrimary(settings: ClusterSettings): Promise<RunningCluster> {
  // The primary's lines are the cluster's life (started, replaced, stopped): shown by default.
  const logger = settings.logger ?? defaultLogger(undefined, 'info')
  await settings.prepare?.()
  const stopRelay = relayClusterBus()
  const env = { [WORKERS_ENV]: String(settings.workers) }
  const stopAfterMs = (settings.shutdownGraceMs ?? 5_000) + STOP_MARGIN_MS
  const listening = new Set<number>()
  const failures = new Map<number, string>()
  const restarts = new Set<NodeJS.Timeout>()
  let url = ''
  let started = false
  let restartDelayMs = settings.restartDelayMs
  let stopping: Promise<void> | undefined

  return new Promise<RunningCluster>((resolve, reject) => {
    const handle: RunningCluster = {
      role: 'primary',
      get url() {
        return url
      },
      workers: settings.workers,
      close: () => stop(),
    }

    const onMessage = (worker: Worker, message: unknown): void => {
      const report = untag<WorkerReport>(message)
      if (report === undefined) return
      if (report.type === 'failed') {
        failures.set(worker.id, report.message)
        return
      }
      listening.add(worker.id)
      url = report.url
      restartDelayMs = settings.restartDelayMs
      // At the start, the one cluster_listening line says it for every worker; a replacement is news.
      const workerLine = { event: 'worker_listening', worker: worker.id, pid: worker.process.pid }
      if (started) logger.info(workerLine, 'replacement worker listening')
      else logger.debug(workerLine, 'worker listening')
      if (!started && listening.size === settings.workers) {
        started = true
        const workers = settings.workers === 1 ? '1 worker' : `${settings.workers} workers`
        logger.info(
          { event: 'cluster_listening', url, workers: settings.workers },
          `MCP server listening on ${url} with ${workers}`,
        )
        resolve(handle)
      }
    }

    const onExit = (worker: Worker, code: number | null, signal: string | null): void => {
      const served = listening.delete(worker.id)
      const reason = failures.get(worker.id) ?? `exit code ${code}${signal ? `, signal ${signal}` : ''}`
      failures.delete(worker.id)
      if (stopping) return
      if (!served) {
        logger.error(
          { event: 'worker_failed_to_start', worker: worker.id, code, signal, reason },
          `worker ${worker.id} failed to start: ${reason}`,
        )
        if (!started) {
          // What fails at the first start fails on every retry: stop instead of looping.
          stop().then(() => reject(new Error(`serveCluster: worker ${worker.id} failed to start: ${reason}`)))
          return
        }
        restartDelayMs = Math.min(restartDelayMs * 2, MAX_RESTART_DELAY_MS)
      } else {
        logger.error(
          { event: 'worker_died', worker: worker.id, code, signal },
          'a worker died: starting another',
        )
      }
      const timer = setTimeout(
        () => {
          restarts.delete(timer)
          if (!stopping) cluster.fork(env)
        },
        served ? settings.restartDelayMs : restartDelayMs,
      )
      restarts.add(timer)
    }

    const onSignal = (signal: NodeJS.Signals): void => {
      logger.info({ event: 'shutdown', signal }, `${signal}: stopping the workers`)
      void stop()
    }

    const stop = (): Promise<void> => {
      stopping ??= (async () => {
        for (const timer of restarts) clearTimeout(timer)
        const alive = Object.values(cluster.workers ?? {}).filter((w): w is Worker => w !== undefined)
        await Promise.all(alive.map((worker) => stopWorker(worker, stopAfterMs)))
        stopRelay()
        cluster.off('message', onMessage).off('exit', onExit)
        process.off('SIGINT', onSignal).off('SIGTERM', onSignal)
        logger.info({ event: 'cluster_stopped' }, 'all workers stopped')
      })()
      return stopping
    }

    cluster.on('message', onMessage).on('exit', onExit)
    // Repeats (Ctrl-C twice) land here too and find the stop under way.
    if (settings.handleSignals) process.on('SIGINT', onSignal).on('SIGTERM', onSignal)
    for (let i = 0; i < settings.workers; i++) cluster.fork(env)
  })
}

/** Asks a worker to stop, and kills it if it has not exited after `killAfterMs`. */
/** What stopping a worker uses of it: its state, its channel, its exit and its process's signals. */
export type StoppableWorker = Pick<Worker, 'isDead' | 'isConnected'> & {
  send(message: unknown, callback: (error: Error | null) => void): unknown
  once(event: 'exit', listener: () => void): unknown
  process: { kill(signal: NodeJS.Signals): unknown }
}

export function stopWorker(worker: StoppableWorker, killAfterMs: number): Promise<void> {
  if (worker.isDead()) return Promise.resolve()
  return new Promise((resolve) => {
    const timer = setTimeout(() => worker.process.kill('SIGKILL'), killAfterMs)
    worker.once('exit', () => {
      clearTimeout(timer)
      resolve()
    })
    const terminate = (): void => {
      worker.process.kill('SIGTERM')
    }
    // A worker may be exiting while its channel still looks open: the send then fails (EPIPE),
    // and is answered with a signal instead of an 'error' event on the worker.
    if (worker.isConnected())
      worker.send(tagged({ type: 'stop' } satisfies PrimaryCommand), (error) => {
        if (error) terminate()
      })
    else terminate()
  })
}
