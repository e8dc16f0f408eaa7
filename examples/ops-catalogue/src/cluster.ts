/**
 * @module cluster
 * `--workers N`: a primary that prepares once (key file, seed) and N workers that serve. Workers
 * share the listening port through node:cluster, and everything that decides "was this answer
 * already used" through the store and the key file, never through memory: any worker may get the
 * retry of an answer another worker asked.
 */
import cluster, { type Worker } from 'node:cluster'
import { relayClusterBus } from '@tessera/core/cluster'
import type { AppConfig } from './cli.ts'
import { type AppLogger, createLogger } from './logger.ts'
import { prepareData } from './runtime/open-ops.ts'
import { serveHttp } from './runtime/serve-http.ts'
import { onShutdown } from './runtime/shutdown.ts'

const CONFIG_ENV = 'OPS_CATALOGUE_WORKER_CONFIG'
const RESTART_DELAY_MS = 1_000

export async function runPrimary(config: AppConfig, logger: AppLogger): Promise<void> {
  // Before any fork: the workers must find one key file and a seeded log, never race to make them.
  await prepareData(config, logger)
  const env = { [CONFIG_ENV]: JSON.stringify(config) }
  const started = new Set<number>()
  let stopping = false

  // Notifications, and a 2025-11-25 client's answers and cancels, reach whichever worker needs them.
  relayClusterBus()
  const fork = (): Worker => cluster.fork(env)
  cluster.on('listening', (worker, address) => {
    if (started.has(worker.id)) return
    started.add(worker.id)
    logger.debug(
      { event: 'worker_listening', worker: worker.id, pid: worker.process.pid },
      'worker listening',
    )
    if (started.size === config.workers) {
      const url = `http://${config.host}:${address.port}${config.path}`
      logger.info(
        { event: 'listening', url, workers: config.workers },
        `ops-catalogue listening on ${url} with ${config.workers} workers`,
      )
    }
  })
  cluster.on('exit', (worker, code, signal) => {
    if (stopping) {
      if (Object.keys(cluster.workers ?? {}).length === 0)
        logger.info({ event: 'stopped' }, 'all workers stopped')
      return
    }
    if (!started.has(worker.id)) {
      // A worker that dies before listening will die again: stop instead of looping.
      logger.fatal(
        { event: 'worker_failed_to_start', worker: worker.id, code, signal },
        'a worker failed to start: stopping',
      )
      stopAll(1)
      return
    }
    logger.error({ event: 'worker_died', worker: worker.id, code, signal }, 'a worker died: starting another')
    setTimeout(() => {
      if (!stopping) fork()
    }, RESTART_DELAY_MS).unref()
  })

  const stopAll = (exitCode: number): Promise<void> => {
    stopping = true
    const workers = Object.values(cluster.workers ?? {}).filter((w): w is Worker => w !== undefined)
    return new Promise<void>((resolve) => {
      let left = workers.length
      if (left === 0) resolve()
      for (const w of workers) {
        w.once('exit', () => {
          if (--left === 0) resolve()
        })
        w.process.kill('SIGTERM')
      }
    }).then(() => {
      if (exitCode !== 0) process.exit(exitCode)
    })
  }
  onShutdown(logger, () => stopAll(0))
  for (let i = 0; i < config.workers; i++) fork()
}

/** Entry of a forked worker: the primary hands its resolved configuration over in the environment. */
export async function runWorker(): Promise<void> {
  const config = JSON.parse(process.env[CONFIG_ENV] ?? 'null') as AppConfig | null
  if (config === null) throw new Error(`a cluster worker needs ${CONFIG_ENV}`)
  const logger = createLogger(config.logLevel, { worker: cluster.worker?.id })
  // No handler for a vanished primary: node:cluster itself exits a worker whose IPC channel closes.
  await serveHttp(config, logger)
}
