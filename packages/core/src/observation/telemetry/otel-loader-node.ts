/**
 * @module otel-loader-node
 * `#otel-loader` on Node, Bun and Deno: `@opentelemetry/api` by `require`, synchronously, from the
 * application's own installation (or its bundle), or undefined when it is not installed.
 */
import { otelApiPackage } from '#on-demand'
import type { OtelApi } from './otel-api.ts'

export function loadOtelApi(): OtelApi | undefined {
  return otelApiPackage() as OtelApi | undefined
}
