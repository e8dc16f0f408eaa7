/**
 * @module catalogue-resource
 * `ops://catalogue`: every service with its owner, tier, health and current version, as JSON. It
 * keeps the server's default cache hint (private, ttlMs 0) on purpose: the current versions move
 * with every rollback, so no client or intermediary should reuse a read.
 */
import type { McpServer } from '@tessera/core'
import { headOf } from '../deployments/release-history.ts'
import { type OpsDeps, runbooksUri } from '../server/ops-deps.ts'

export const CATALOGUE_URI = 'ops://catalogue'

export function registerCatalogueResource(app: McpServer, { catalogue, log, scopes }: OpsDeps): void {
  app.resource(
    CATALOGUE_URI,
    {
      name: 'catalogue',
      title: 'Service catalogue',
      scopes: scopes.read,
      description: 'Every service: owner, tier, last health check and the version running now.',
      mimeType: 'application/json',
    },
    async (uri) => {
      const services = await Promise.all(
        catalogue.services().map(async (s) => {
          const head = headOf(await log.history(s.id))
          return {
            id: s.id,
            name: s.name,
            description: s.description,
            owner: s.owner,
            tier: s.tier,
            health: s.health,
            currentVersion: head?.version ?? null,
            lastChange: head ? { kind: head.kind, at: head.at, by: head.by } : null,
            runbooks: runbooksUri(s.id),
          }
        }),
      )
      const text = JSON.stringify({ name: catalogue.name, services }, null, 2)
      return { contents: [{ uri, mimeType: 'application/json', text }] }
    },
  )
}
