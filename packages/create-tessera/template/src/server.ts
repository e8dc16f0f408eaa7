import { createServer, elicitForm } from '@tessera/core'
import { z } from 'zod'

/** What the tools act on; the tests pass their own. */
export interface Services {
  restart(service: string): Promise<void>
}

/** The confirmation form: its fields never change, so it is built once, like a tool's input. */
const Confirmation = z.object({ confirm: z.boolean().describe('Yes, restart it') })

export function buildServer(services: Services) {
  const app = createServer({ name: 'my-mcp-server', version: '0.1.0' })

  app.tool(
    'restart_service',
    {
      description: 'Restarts a service, once a person has confirmed it.',
      input: z.object({ service: z.string().min(1).describe('The service to restart') }),
      output: z.object({ service: z.string(), restarted: z.boolean() }),
      annotations: { destructiveHint: true },
      // One confirmation restarts once, however often the client re-sends it.
      singleUse: true,
    },
    async ({ service }, ctx) => {
      const answer = await ctx.ask(
        'confirm',
        elicitForm({ message: `Restart ${service}?`, schema: Confirmation }),
      )
      if (answer.action !== 'accept' || !answer.content.confirm) {
        return {
          content: [{ type: 'text', text: `${service} was left running.` }],
          structuredContent: { service, restarted: false },
        }
      }
      await services.restart(service)
      return {
        content: [{ type: 'text', text: `Restarted ${service}.` }],
        structuredContent: { service, restarted: true },
      }
    },
  )

  return app
}
