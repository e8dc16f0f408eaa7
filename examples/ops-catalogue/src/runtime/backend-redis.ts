/**
 * @module backend-redis
 * `--store redis://…`: the deployment log and the framework's stores on one Redis, shared by
 * every host.
 */
import { redisStores } from '@tessera/store-redis'
import { redisDeploymentLog } from '../deployments/redis-deployment-log.ts'
import type { Backend } from './backends.ts'

export function redisBackend(url: string): Backend {
  return {
    deploymentLog: () => redisDeploymentLog({ url, keyPrefix: 'ops-catalogue:' }),
    stores: () => redisStores({ url, prefix: 'ops-catalogue:' }),
  }
}
