/**
 * @module backend-postgres
 * `--store postgres://…`: the deployment log and the framework's stores in one PostgreSQL
 * database, shared by every host.
 */
import { postgresStores } from '@tessera/store-postgres'
import { postgresDeploymentLog } from '../deployments/postgres-deployment-log.ts'
import type { Backend } from './backends.ts'

export function postgresBackend(connectionString: string): Backend {
  return {
    deploymentLog: () => postgresDeploymentLog({ connectionString, table: 'ops_deployments' }),
    stores: () => postgresStores({ connectionString, prefix: 'ops_' }),
  }
}
