/**
 * The `tessera-no-otel` server with a rate limit on every caller that no bench run reaches, its
 * buckets in the default memory store: against `tessera-no-otel`, the cost of one limit check.
 */
import { listen } from '@tessera/core/http'
import { benchApp } from './tessera-app.ts'

const server = await listen(
  benchApp({ telemetry: false, rateLimits: { caller: { calls: 1_000_000_000, perMs: 1_000 } } }),
  { host: '127.0.0.1', port: Number(process.env.PORT ?? 0), path: '/mcp' },
)
console.log(`READY ${server.port}`)
