/**
 * The `tessera-rate-limited` server with its buckets in a SQLite file (the store the workers of
 * one host share): against `tessera-no-otel`, the cost of one limit check that writes to disk.
 */
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { listen } from '@tessera/core/http'
import { sqliteRateLimitStore } from '@tessera/store-sqlite'
import { benchApp } from './tessera-app.ts'

const path = join(mkdtempSync(join(tmpdir(), 'tessera-bench-limits-')), 'limits.db')
const server = await listen(
  benchApp({
    telemetry: false,
    rateLimits: { caller: { calls: 1_000_000_000, perMs: 1_000 } },
    stores: { rateLimits: sqliteRateLimitStore({ path }) },
  }),
  { host: '127.0.0.1', port: Number(process.env.PORT ?? 0), path: '/mcp' },
)
console.log(`READY ${server.port}`)
