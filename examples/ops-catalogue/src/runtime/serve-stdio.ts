/**
 * @module serve-stdio
 * The stdio mode: one process, one client, requests on stdin and answers on stdout. It ends when
 * stdin ends (the host closed it), after the requests in flight are answered.
 */
import { serveStdio } from '@tessera/core/stdio'
import type { AppConfig } from '../cli.ts'
import type { AppLogger } from '../logger.ts'
import { openOps, prepareData } from './open-ops.ts'
import { onShutdown } from './shutdown.ts'

export async function serveStdioMode(config: AppConfig, logger: AppLogger): Promise<void> {
  const prepared = await prepareData(config, logger)
  const ops = await openOps(config, logger, prepared)
  let closed = false
  const close = async () => {
    if (closed) return
    closed = true
    await ops.app.close()
    await ops.closeLog()
  }
  onShutdown(logger, close)
  logger.info({ event: 'serving_stdio', store: ops.store }, 'ops-catalogue serving on stdio')
  await serveStdio(ops.app)
  await close()
  // Answers are on their way out; wait for stdout to take them before the process may end.
  await new Promise<void>((resolve) => process.stdout.write('', () => resolve()))
  logger.info({ event: 'stopped' }, 'stdin closed: stopped')
}
