/**
 * @module otel-loader-node
 * `#otel-loader` on Node, Bun and Deno: `@opentelemetry/api` by `require`, synchronously, from the
 * application's own installation, or undefined when it is not installed.
 */
import { createRequire } from 'node:module'
import type { OtelApi } from './otel-api.ts'

export function loadOtelApi(): OtelApi | undefined {
  try {
    return createRequire(import.meta.url)('@opentelemetry/api') as OtelApi
  } catch {
    return undefined
  }
}
