/**
 * @module service-status
 * `service_status`: who owns a service, how healthy it was last seen, and which version runs now.
 * The version comes from the deployment log, so a rollback done through this server shows here;
 * its fields are shown as `deployment_history` shows them, each on its line.
 */
import type { McpServer } from '@tessera/core'
import { z } from 'zod'
import { headOf } from '../deployments/release-history.ts'
import { type OpsDeps, runbooksUri } from '../server/ops-deps.ts'
import { shownDeployment } from './deployment-history.ts'
import { deploymentShape, serviceArgument, unknownService } from './tool-results.ts'

const output = z.object({
  service: z.string(),
  name: z.string(),
  owner: z.object({ team: z.string(), contact: z.string(), email: z.string().optional() }),
  tier: z.number().int(),
  health: z.object({
    status: z.enum(['healthy', 'degraded', 'down']),
    checkedAt: z.string(),
    note: z.string().optional(),
  }),
  currentVersion: z.string(),
  lastChange: deploymentShape,
  runbooks: z.string(),
})

export function registerServiceStatus(app: McpServer, { catalogue, log, scopes, viewUri }: OpsDeps): void {
  app.tool(
    'service_status',
    {
      title: 'Service status',
      scopes: scopes.read,
      description: 'Owner, tier, last health check and the version running now for one service.',
      input: z.object({ service: serviceArgument }),
      output,
      annotations: { readOnlyHint: true, openWorldHint: false },
      // A host that renders views shows the service beside the result; any other gets the text.
      ...(viewUri === undefined ? {} : { ui: { resourceUri: viewUri } }),
    },
    async ({ service }) => {
      const entry = catalogue.get(service)
      if (entry === undefined) return unknownService(catalogue, service)
      const head = headOf(await log.history(service))
      if (head === undefined) throw new Error(`the deployment log has no history for ${service}`)
      const shown = shownDeployment(head)
      const how = head.kind === 'rollback' ? `rolled back from ${shown.previousVersion ?? '?'}` : 'deployed'
      const lines = [
        `${entry.id} (${entry.name}): tier ${entry.tier}, owned by ${entry.owner.team} (${entry.owner.contact})`,
        `Health: ${entry.health.status} at ${entry.health.checkedAt}${entry.health.note ? `: ${entry.health.note}` : ''}`,
        `Current version: ${shown.version}, ${how} at ${shown.at} by ${shown.by}`,
        `Runbooks: ${runbooksUri(entry.id)}`,
      ]
      return {
        content: [
          { type: 'text', text: lines.join('\n') },
          {
            type: 'resource_link',
            uri: runbooksUri(entry.id),
            name: `${entry.id}-runbooks`,
            title: `Runbooks for ${entry.name}`,
            mimeType: 'text/markdown',
          },
        ],
        structuredContent: {
          service: entry.id,
          name: entry.name,
          owner: entry.owner,
          tier: entry.tier,
          health: entry.health,
          currentVersion: head.version,
          lastChange: head,
          runbooks: runbooksUri(entry.id),
        },
      }
    },
  )
}
