/**
 * @module conformance-server
 * The conformance fixture's server: every tool, resource, prompt and skill the official suite calls.
 * Each runtime's entry serves it on 127.0.0.1 at /mcp (`main.ts` on Node, `bun.ts`, `deno.ts`,
 * `worker.ts` and `durable-worker.ts` on workerd); `stores` are the server's, in memory by default.
 */
import { createServer, type Stores } from '@tessera/core'
import { registerPrompts, registerResources, registerTriggers } from './catalogue.ts'
import { registerContentTools } from './content-tools.ts'
import { registerInteractiveTools } from './interactive-tools.ts'
import { fixtureSkills } from './skills.ts'
import { registerTaskTools } from './task-tools.ts'

export function createConformanceServer(stores?: Stores) {
  const app = createServer({
    name: 'tessera-conformance',
    version: '0.1.0',
    logging: true,
    extensions: [fixtureSkills()],
    ...(stores === undefined ? {} : { stores }),
  })
  registerContentTools(app)
  registerInteractiveTools(app)
  registerTaskTools(app)
  registerTriggers(app)
  registerResources(app)
  registerPrompts(app)
  return app
}
