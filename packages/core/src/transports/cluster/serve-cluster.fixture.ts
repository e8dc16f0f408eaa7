/**
 * @module serve-cluster.fixture
 * The entry script `serve-cluster.test` runs as a real process tree: `serveCluster` with the
 * workers, mode and grace period the environment names, logging JSON lines on stderr. Its
 * tools tell which worker answered (`pid`), take their time (`slow`), and announce a resource
 * update (`touch`) that every worker's listen streams must hear. Modes: `shared` (keys every
 * worker reads, no handshake era), `local` (no keys: must be refused), `broken` (the server
 * cannot be built); `FIXTURE_LOGGER=default` passes no logger.
 */
import { pino } from 'pino'
import { createServer } from '../../index.ts'
import { serveCluster } from './serve-cluster.ts'

const mode = process.env.FIXTURE_MODE ?? 'shared'
// `FIXTURE_LOGGER=default`: the primary and the servers log through serveCluster's and createServer's defaults.
const logger =
  process.env.FIXTURE_LOGGER === 'default' ? undefined : pino({ level: 'info' }, pino.destination(2))

await serveCluster({
  workers: Number(process.env.FIXTURE_WORKERS ?? 2),
  port: Number(process.env.PORT ?? 0),
  shutdownGraceMs: 3_000,
  restartDelayMs: 100,
  logger,
  server: ({ id }) => {
    if (mode === 'broken') throw new Error('the database is unreachable')
    const app = createServer({
      name: 'cluster-fixture',
      version: '1.0.0',
      logger: logger?.child({ worker: id }),
      handshake: false,
      requestState:
        mode === 'local' ? undefined : { keys: [{ id: 'k1', secret: process.env.FIXTURE_SECRET! }] },
    })
    app.tool('pid', { description: 'The pid of the worker that answers' }, () => String(process.pid))
    app.tool('slow', { description: 'Answers after a while' }, async () => {
      await new Promise((resolve) => setTimeout(resolve, 600))
      return `slow done by ${process.pid}`
    })
    app.tool('touch', { description: 'Announces a resource update' }, () => {
      app.notifyResourceUpdated('config://shared')
      return 'touched'
    })
    app.resource('config://shared', { name: 'shared' }, (uri) => ({ contents: [{ uri, text: 'x' }] }))
    return app
  },
})
