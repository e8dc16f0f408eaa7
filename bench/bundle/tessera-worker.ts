/**
 * @module tessera-worker
 * The hello server as a Worker would hold it: built once at module scope, served through the
 * web-standard face. `npm run bench:bundle` bundles it for the Workers conditions.
 */
import { createServer } from '@tessera/core'
import { createFetchHandler } from '@tessera/core/http'
import { z } from 'zod'

const app = createServer({ name: 'hello', version: '1.0.0' })
app.tool(
  'greet',
  { description: 'Greet someone by name', input: z.object({ name: z.string() }) },
  ({ name }) => `Hello, ${name}.`,
)
const mcp = createFetchHandler(app)

export default { fetch: mcp }
