/**
 * @module serve-http
 * The one HTTP-serving process (without workers). Shutdown drains before it closes: `close()`
 * stops accepting, lets requests in flight finish (a rollback half-way through its single-use
 * record must be allowed to write it), then closes the stores; the deployment log goes last.
 */
import { listen, type RunningServer } from '@tessera/core/http'
import { type AppConfig, proxyOptions } from '../cli.ts'
import type { AppLogger } from '../logger.ts'
import type { OpenOps } from './open-ops.ts'
import { onShutdown } from './shutdown.ts'
import type { Telemetry } from './telemetry.ts'

export interface HttpProcess {
  running: RunningServer
  stop(reason: string): void
}

export async function serveHttp(
  config: AppConfig,
  logger: AppLogger,
  ops: OpenOps,
  telemetry?: Telemetry,
): Promise<HttpProcess> {
  // @tessera/auth (and jose) are loaded only by a server that takes tokens.
  const auth = config.auth
    ? (await import('./ops-auth.ts')).opsAuth(config.auth, () => ops.replay)
    : undefined
  const running = await listen(ops.app, {
    host: config.host,
    port: config.port,
    path: config.path,
    ...proxyOptions(config),
    auth,
    health: true,
  })
  const stop = onShutdown(logger, async () => {
    await running.close()
    await ops.closeLog()
    // What the last requests recorded leaves before the process does.
    await telemetry?.shutdown()
    logger.info({ event: 'stopped' }, 'stopped')
  })
  return { running, stop }
}
