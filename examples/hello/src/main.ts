import { createServer } from '@tessera/core'
import { listen } from '@tessera/core/http'
import { serveStdio } from '@tessera/core/stdio'
import { z } from 'zod'

const app = createServer({ name: 'hello', version: '1.0.0' })

app.tool(
  'greet',
  {
    description: 'Greet someone by name',
    input: z.object({ name: z.string(), excited: z.boolean().default(false) }),
  },
  ({ name, excited }) => `Hello, ${name}${excited ? '!' : '.'}`,
)

if (process.argv.includes('--stdio')) await serveStdio(app)
else console.error(`listening on ${(await listen(app, { port: Number(process.env.PORT ?? 3000) })).url}`)
