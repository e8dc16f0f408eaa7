/** Tessera serving the bench `echo` tool and `bench://greeting` resource (2026-07-28, stateless). */
import { listen } from '@tessera/core/http'
import { benchApp } from './tessera-app.ts'

const server = await listen(benchApp(), {
  host: '127.0.0.1',
  port: Number(process.env.PORT ?? 0),
  path: '/mcp',
})
console.log(`READY ${server.port}`)
