/**
 * @module cli-server.fixture
 * The server the CLI tests call: typed arguments, a tool that reports an error, one that reports
 * progress towards a total and one that reports steps without one, one that asks a form (a choice, a yes/no and a number), one with an argument
 * mirrored into a header, and one that runs as a task for a client that takes tasks. `cliServer()` builds it; run as a script, it serves it over stdio.
 */
import { createServer, elicitForm, type McpServer, ToolError } from '@tessera/core'
import { serveStdio } from '@tessera/core/stdio'
import { pino } from 'pino'
import { z } from 'zod'

export function cliServer(): McpServer {
  const app = createServer({ name: 'cli-fixture', version: '2.0.0', logger: pino({ level: 'silent' }) })
  app.tool(
    'echo',
    {
      description: 'Echoes typed arguments',
      input: z.object({ text: z.string(), count: z.number().int().optional(), loud: z.boolean().optional() }),
    },
    ({ text, count, loud }) => {
      const said = (loud ? text.toUpperCase() : text).repeat(count ?? 1)
      return { content: [{ type: 'text', text: said }], structuredContent: { said } }
    },
  )
  app.tool('fails', { description: 'Reports an error' }, () => {
    throw new ToolError('the disk is full')
  })
  app.tool('progress', { description: 'Reports progress' }, async (_args, ctx) => {
    for (const step of [1, 2, 3]) {
      ctx.progress(step, 3, `step ${step}`)
      await new Promise((resolve) => setTimeout(resolve, 5))
    }
    return 'all steps done'
  })
  app.tool('order', { description: 'Asks how to order' }, async (_args, ctx) => {
    const answer = await ctx.ask(
      'order',
      elicitForm({
        message: 'How do you want it?',
        schema: z.object({ size: z.enum(['small', 'large']), gift: z.boolean(), copies: z.number().int() }),
      }),
    )
    if (answer.action !== 'accept') return `no order (${answer.action})`
    const { size, gift, copies } = answer.content
    return `${copies} ${size}${gift ? ' gift-wrapped' : ''}`
  })
  app.tool(
    'build',
    {
      description: 'Builds as a task, asking for the target inside it',
      task: { support: 'optional', pollIntervalMs: 100 },
    },
    async (_args, ctx) => {
      const answer = await ctx.ask(
        'target',
        elicitForm({ message: 'Target?', schema: z.object({ os: z.enum(['linux', 'mac']) }) }),
      )
      if (answer.action !== 'accept') return 'nothing built'
      ctx.progress(1, 2, 'compiling')
      await new Promise((resolve) => setTimeout(resolve, 150))
      return `built for ${answer.content.os} (${ctx.task === undefined ? 'synchronously' : 'as a task'})`
    },
  )
  app.tool(
    'route',
    {
      description: 'Has an argument mirrored into Mcp-Param-Region',
      input: z.object({ region: z.string().meta({ 'x-mcp-header': 'Region' }) }),
    },
    ({ region }) => `routed to ${region}`,
  )
  app.tool('warm_up', { description: 'Reports steps without a total' }, async (_args, ctx) => {
    for (const step of [1, 2, 3]) {
      ctx.progress(step, undefined, `warming ${step}`)
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
    return 'warm'
  })
  return app
}

if (process.argv.includes('--serve-stdio')) await serveStdio(cliServer())
