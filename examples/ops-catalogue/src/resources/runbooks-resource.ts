/**
 * @module runbooks-resource
 * `ops://runbooks/{service}`: a service's runbooks as one Markdown document. An unknown service
 * is "not found" (the handler returns undefined), never an empty document.
 */
import type { McpServer } from '@tessera/core'
import type { ServiceEntry } from '../catalogue/catalogue-schema.ts'
import type { OpsDeps } from '../server/ops-deps.ts'

export const RUNBOOKS_TEMPLATE = 'ops://runbooks/{service}'

export function registerRunbooksResource(app: McpServer, { catalogue, scopes }: OpsDeps): void {
  app.resourceTemplate(
    RUNBOOKS_TEMPLATE,
    {
      name: 'runbooks',
      title: 'Runbooks of a service',
      scopes: scopes.read,
      description: 'What to do when a service misbehaves, in Markdown.',
      mimeType: 'text/markdown',
      complete: { service: (value) => catalogue.complete(value) },
    },
    (uri, { service }) => {
      const entry = service === undefined ? undefined : catalogue.get(service)
      if (entry === undefined) return undefined
      return { contents: [{ uri, mimeType: 'text/markdown', text: runbooksMarkdown(entry) }] }
    },
  )
}

export function runbooksMarkdown(entry: ServiceEntry): string {
  const header = `<!-- ${entry.id}: ${entry.name}, tier ${entry.tier}, owner ${entry.owner.team} (${entry.owner.contact}) -->\n\n`
  return `${header}${entry.runbooks.map((r) => r.markdown.trimEnd()).join('\n\n---\n\n')}\n`
}
