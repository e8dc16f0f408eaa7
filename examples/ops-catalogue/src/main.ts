/**
 * @module main
 * `npm start`: reads the command line and starts one of the modes (HTTP, HTTP with workers,
 * stdio). Everything else lives in the modules each mode calls. With workers, this script runs
 * again in each of them and reads the same command line.
 */
import { CatalogueError } from './catalogue/load-catalogue.ts'
import { parseCli } from './cli.ts'
import { serveWorkers } from './cluster.ts'
import { createLogger } from './logger.ts'
import { openOps, prepareData } from './runtime/open-ops.ts'
import { serveHttp } from './runtime/serve-http.ts'
import { serveStdioMode } from './runtime/serve-stdio.ts'

const cli = parseCli(process.argv.slice(2), process.env)
if (cli.kind === 'help') {
  process.stdout.write(`${cli.text}\n`)
  process.exit(0)
}
if (cli.kind === 'error') {
  process.stderr.write(`ops-catalogue: ${cli.message}\nRun with --help for the options.\n`)
  process.exit(2)
}
const { config } = cli
const logger = createLogger(config.logLevel)
// Registered before any server exists: its spans and metric instruments come from this SDK,
// which is loaded only when asked for.
const telemetry =
  config.otel || config.metricsPort !== undefined
    ? (await import('./runtime/telemetry.ts')).startTelemetry({
        otlp: config.otel,
        host: config.host,
        metricsPort: config.metricsPort,
      })
    : undefined
try {
  if (config.mode === 'stdio') {
    await serveStdioMode(config, logger)
    process.exit(0)
  } else if (config.workers > 1) {
    await serveWorkers(config, logger)
  } else {
    const prepared = await prepareData(config, logger)
    const { running } = await serveHttp(config, logger, await openOps(config, logger, prepared), telemetry)
    logger.info({ event: 'listening', url: running.url }, `ops-catalogue listening on ${running.url}`)
  }
} catch (error) {
  if (error instanceof CatalogueError)
    logger.fatal({ event: 'catalogue_invalid', file: error.file }, error.message)
  else logger.fatal({ event: 'start_failed', err: error }, `cannot start: ${(error as Error).message}`)
  process.exit(1)
}
