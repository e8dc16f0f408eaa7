/**
 * @module ops-test-server
 * A real ops server on 127.0.0.1, port 0, over a throw-away SQLite file seeded from the shipped
 * catalogue: what `npm start` builds, minus the CLI, so each test starts from the same history.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type HttpAuthenticator, listen } from '@tessera/core/http'
import { generateStateKey } from '@tessera/core/request-state'
import { sqliteReplayStore } from '@tessera/store-sqlite'
import { silentLogger } from '../../../test/helpers/silent-logger.ts'
import { loadCatalogue } from '../src/catalogue/load-catalogue.ts'
import { SHIPPED_CATALOGUE } from '../src/cli.ts'
import type { DeploymentLog } from '../src/deployments/deployment-log.ts'
import { seedDeployments } from '../src/deployments/seed-deployments.ts'
import { sqliteDeploymentLog } from '../src/deployments/sqlite-deployment-log.ts'
import { createOpsServer } from '../src/server/create-ops-server.ts'
import { type ClientOptions, McpClient } from './mcp-client.ts'

export interface TestServer {
  url: string
  client: McpClient
  log: DeploymentLog
  /** A client with other capabilities or identity, against the same server. */
  clientWith(options: ClientOptions): McpClient
  rollbacks(service: string): Promise<number>
  close(): Promise<void>
}

export async function startOpsServer(
  options: { rollbackMs?: number; auth?: HttpAuthenticator; view?: string } = {},
): Promise<TestServer> {
  const dir = mkdtempSync(join(tmpdir(), 'ops-catalogue-test-'))
  const db = join(dir, 'ops.sqlite')
  const catalogue = loadCatalogue(SHIPPED_CATALOGUE)
  const log = sqliteDeploymentLog({ path: db })
  await seedDeployments(catalogue, log)
  const app = createOpsServer({
    catalogue,
    log,
    stores: { replay: sqliteReplayStore({ path: db, table: 'ops_single_use' }) },
    stateKeys: [generateStateKey('test')],
    logger: silentLogger,
    rollbackMs: options.rollbackMs,
    ...(options.view === undefined ? {} : { view: options.view }),
  })
  const running = await listen(app, {
    host: '127.0.0.1',
    port: 0,
    ...(options.auth === undefined ? {} : { auth: options.auth }),
  })
  return {
    url: running.url,
    client: new McpClient(running.url),
    log,
    clientWith: (options) => new McpClient(running.url, options),
    rollbacks: async (service) => (await log.history(service)).filter((d) => d.kind === 'rollback').length,
    async close() {
      await running.close()
      await log.close()
      rmSync(dir, { recursive: true, force: true })
    },
  }
}
