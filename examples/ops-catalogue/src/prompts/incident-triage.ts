/**
 * @module incident-triage
 * `incident_triage`: a prompt that puts a service's status, recent changes and runbooks in front
 * of the model, and tells it to propose a rollback rather than perform one: the rollback tool
 * asks a human anyway, and a triage should end with a recommendation, not an action. The recent
 * changes are one line each, their fields shown as `deployment_history` shows them, and an unknown
 * service is named back on one line.
 */
import { type McpServer, TesseraError } from '@tessera/core'
import { z } from 'zod'
import type { Deployment } from '../deployments/deployment-log.ts'
import { oneLine } from '../one-line.ts'
import { runbooksMarkdown } from '../resources/runbooks-resource.ts'
import { type OpsDeps, runbooksUri } from '../server/ops-deps.ts'
import { shownDeployment } from '../tools/deployment-history.ts'

const RECENT = 5

export function registerIncidentTriage(app: McpServer, { catalogue, log, scopes }: OpsDeps): void {
  app.prompt(
    'incident_triage',
    {
      title: 'Incident triage',
      scopes: scopes.read,
      description: 'Start an incident triage for one service: status, recent deployments and its runbooks.',
      args: z.object({ service: z.string().describe('Service id, e.g. "checkout".') }),
      complete: { service: (value) => catalogue.complete(value) },
    },
    async ({ service }) => {
      const entry = service === undefined ? undefined : catalogue.get(service)
      if (entry === undefined) {
        throw new TesseraError(
          'TESSERA_INVALID_PARAMS',
          `Invalid params: unknown service '${oneLine(String(service), 64)}'.`,
        )
      }
      const history = await log.history(entry.id)
      const recent = history.slice(-RECENT).reverse()
      const current = history.at(-1)
      const text = [
        `You are helping the on-call engineer triage an incident on ${entry.name} (${entry.id}).`,
        `Tier ${entry.tier}, owned by ${entry.owner.team}; escalate in ${entry.owner.contact}.`,
        `Last health check: ${entry.health.status} at ${entry.health.checkedAt}${entry.health.note ? ` (${entry.health.note})` : ''}.`,
        `Running version: ${current?.version ?? 'unknown'}.`,
        '',
        `Most recent changes, newest first:`,
        ...recent.map(describe),
        '',
        'Work through it in this order:',
        `1. Confirm the symptoms with the service_status tool and the service's dashboards.`,
        '2. Check whether the incident started shortly after one of the changes above.',
        '3. Follow the matching runbook (attached below).',
        '4. If a recent deployment is the likely cause, recommend a rollback and name the version; the rollback tool will ask the engineer to confirm before anything happens.',
        'Finish with a short summary: impact, likely cause, next action and who owns it.',
      ].join('\n')
      return {
        description: `Incident triage for ${entry.name}`,
        messages: [
          { role: 'user', content: { type: 'text', text } },
          {
            role: 'user',
            content: {
              type: 'resource',
              resource: {
                uri: runbooksUri(entry.id),
                mimeType: 'text/markdown',
                text: runbooksMarkdown(entry),
              },
            },
          },
        ],
      }
    },
  )
}

function describe(d: Deployment): string {
  const shown = shownDeployment(d)
  const what =
    d.kind === 'rollback'
      ? `rolled back to ${shown.version} from ${shown.previousVersion ?? '?'}`
      : `deployed ${shown.version}`
  return `- ${shown.at}: ${what} by ${shown.by}${shown.note ? ` (${shown.note})` : ''}`
}
