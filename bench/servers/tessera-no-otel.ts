/** The same server built with `telemetry: false`: the baseline the instrumentation is measured against. */
import { listen } from '@tessera/core/http'
import { benchApp } from './tessera-app.ts'

const server = await listen(benchApp({ telemetry: false }), {
  host: '127.0.0.1',
  port: Number(process.env.PORT ?? 0),
  path: '/mcp',
})
console.log(`READY ${server.port}`)
