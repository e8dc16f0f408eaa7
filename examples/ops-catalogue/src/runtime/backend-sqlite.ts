/**
 * @module backend-sqlite
 * The embedded backend (the default): the deployment log and the framework's stores in one
 * SQLite file. Without a bus: in a cluster worker the default bus relays through the primary.
 */
import { mkdirSync } from 'node:fs'
import { dirname } from 'node:path'
import { sqliteStores } from '@tessera/store-sqlite'
import { sqliteDeploymentLog } from '../deployments/sqlite-deployment-log.ts'
import type { Backend } from './backends.ts'

export function sqliteBackend(path: string): Backend {
  const folder = () => mkdirSync(dirname(path), { recursive: true, mode: 0o700 })
  return {
    deploymentLog: () => {
      folder()
      return sqliteDeploymentLog({ path })
    },
    stores: () => {
      folder()
      return sqliteStores({ path, prefix: 'ops_' })
    },
  }
}
