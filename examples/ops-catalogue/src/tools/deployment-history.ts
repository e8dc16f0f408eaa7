/**
 * @module deployment-history
 * `deployment_history`: the deployments and rollbacks of one service, newest first. Rollbacks
 * done through this server are in it, with the version each one replaced.
 */
import type { McpServer } from '@tessera/core'
import { z } from 'zod'
import type { Deployment } from '../deployments/deployment-log.ts'
import type { OpsDeps } from '../server/ops-deps.ts'
import { deploymentShape, serviceArgument, unknownService } from './tool-results.ts'

const DEFAULT_LIMIT = 10

const output = z.object({
  service: z.string(),
  currentVersion: z.string(),
  total: z.number().int(),
  deployments: z.array(deploymentShape),
})

export function registerDeploymentHistory(app: McpServer, { catalogue, log, scopes }: OpsDeps): void {
  app.tool(
    'deployment_history',
    {
      title: 'Deployment history',
      scopes: scopes.read,
      description: 'Deployments and rollbacks of one service, newest first.',
      input: z.object({
        service: serviceArgument,
        limit: z
          .number()
          .int()
          .min(1)
          .max(100)
          .optional()
          .describe(`How many entries to return, newest first (default ${DEFAULT_LIMIT}).`),
      }),
      output,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async ({ service, limit }) => {
      if (catalogue.get(service) === undefined) return unknownService(catalogue, service)
      const history = await log.history(service)
      const newestFirst = history.slice(-(limit ?? DEFAULT_LIMIT)).reverse()
      const current = history.at(-1)?.version ?? 'unknown'
      const header = `${service}: ${history.length} entries, current version ${current}; newest first:`
      return {
        content: [{ type: 'text', text: [header, ...newestFirst.map(line)].join('\n') }],
        structuredContent: {
          service,
          currentVersion: current,
          total: history.length,
          deployments: newestFirst,
        },
      }
    },
  )
}

function line(d: Deployment): string {
  const what =
    d.kind === 'rollback'
      ? `rollback to ${d.version} (from ${d.previousVersion ?? '?'})`
      : `deploy ${d.version}`
  return `#${d.seq} ${d.at} ${what} by ${d.by}${d.note ? `: ${d.note}` : ''}`
}
