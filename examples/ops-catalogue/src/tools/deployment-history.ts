/**
 * @module deployment-history
 * `deployment_history`: the deployments and rollbacks of one service, newest first. Rollbacks
 * done through this server are in it, with the version each one replaced. Each entry is one line
 * of the text the model reads, its fields put on one line and cut short (`oneLine`), so that an
 * entry a log already holds, whoever wrote it, can never read as more than one entry.
 */
import type { McpServer } from '@tessera/core'
import { z } from 'zod'
import type { Deployment } from '../deployments/deployment-log.ts'
import { oneLine } from '../one-line.ts'
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
  const shown = shownDeployment(d)
  const what =
    d.kind === 'rollback'
      ? `rollback to ${shown.version} (from ${shown.previousVersion ?? '?'})`
      : `deploy ${shown.version}`
  return `#${d.seq} ${shown.at} ${what} by ${shown.by}${shown.note ? `: ${shown.note}` : ''}`
}

/** The most characters of one field of an entry a line shows. */
const FIELD_MAX = 256

/** The text fields of an entry as one line shows them. */
export function shownDeployment(
  d: Deployment,
): Pick<Deployment, 'version' | 'at' | 'by' | 'previousVersion' | 'note'> {
  return {
    version: oneLine(d.version, FIELD_MAX),
    at: oneLine(d.at, FIELD_MAX),
    by: oneLine(d.by, FIELD_MAX),
    ...(d.previousVersion === undefined ? {} : { previousVersion: oneLine(d.previousVersion, FIELD_MAX) }),
    ...(d.note === undefined ? {} : { note: oneLine(d.note, FIELD_MAX) }),
  }
}
