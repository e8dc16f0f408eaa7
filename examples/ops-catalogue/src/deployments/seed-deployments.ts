/**
 * @module seed-deployments
 * Copies each service's history from the catalogue into the deployment log the first time the
 * service is seen. After that the log is the truth: restarting never rewinds a rollback.
 */
import type { Catalogue } from '../catalogue/catalogue.ts'
import type { DeploymentLog } from './deployment-log.ts'

/** Returns the ids of the services seeded now (empty when the log already knew them all). */
export async function seedDeployments(catalogue: Catalogue, log: DeploymentLog): Promise<string[]> {
  const seeded: string[] = []
  for (const service of catalogue.services()) {
    if (await log.seed(service.id, service.deployments)) seeded.push(service.id)
  }
  return seeded
}
