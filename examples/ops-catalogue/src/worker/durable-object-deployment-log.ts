/**
 * @module durable-object-deployment-log
 * The `DeploymentLog` of a Worker: every call goes to the one `DeploymentLedger` object, named
 * `ops` in the namespace the Worker binds, through a stub made for the call (a stub belongs to the
 * request that made it).
 */
import type { DurableObjectNamespaceLike } from '@tessera/cloudflare'
import type { DeploymentLog } from '../deployments/deployment-log.ts'
import type { DeploymentLedger } from './deployment-ledger.ts'

/** The ledger's methods as its stub offers them: every call is a promise. */
type LedgerStub = {
  [K in 'seed' | 'history' | 'append' | 'byRequestKey']: (
    ...args: Parameters<DeploymentLedger[K]>
  ) => Promise<ReturnType<DeploymentLedger[K]>>
}

export function durableObjectDeploymentLog(namespace: DurableObjectNamespaceLike): DeploymentLog {
  const ledger = () => namespace.get(namespace.idFromName('ops') as never) as LedgerStub
  return {
    seed: (service, entries) => ledger().seed(service, entries),
    history: (service) => ledger().history(service),
    append: (entry, expectedHeadId) => ledger().append(entry, expectedHeadId),
    byRequestKey: (requestKey) => ledger().byRequestKey(requestKey),
    // Nothing is held between calls.
    async close() {},
  }
}
