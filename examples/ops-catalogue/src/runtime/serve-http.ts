/**
 * @module serve-http
 * One HTTP-serving process (the only one, or one worker of several). Shutdown drains before it
 * closes: stop accepting, let requests in flight finish (a rollback half-way through its
 * single-use record must be allowed to write it), then close the stores.
 */
import type { Server } from 'node:http'
import { listen, type RunningServer } from '@tessera/core/http'
import type { AppConfig } from '../cli.ts'
import type { AppLogger } from '../logger.ts'
import { type OpenOps, openOps } from './open-ops.ts'
import { onShutdown } from './shutdown.ts'

const DRAIN_MS = 5_000

export interface HttpProcess {
  running: RunningServer
  stop(reason: string): void
}

export async function serveHttp(
  config: AppConfig,
  logger: AppLogger,
  ops: OpenOps = openOps(config, logger),
): Promise<HttpProcess> {
  const running = await listen(ops.app, { host: config.host, port: config.port, path: config.path })
  const stop = onShutdown(logger, async () => {
    await drain(running.httpServer)
    await running.close()
    await ops.closeLog()
    logger.info({ event: 'stopped' }, 'stopped')
  })
  return { running, stop }
}

function drain(server: Server): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      server.closeAllConnections()
      resolve()
    }, DRAIN_MS)
    timer.unref()
    server.close(() => {
      clearTimeout(timer)
      resolve()
    })
    server.closeIdleConnections()
  })
}
