/**
 * @module otel-loader-web
 * `#otel-loader` on Workers and in browsers: there is no synchronous way to load an optional
 * package there (a bundle holds only what it imports), so Tessera makes no spans or metrics of its
 * own; the platform's tracing (Workers' automatic traces) still sees every request.
 */
import type { OtelApi } from './otel-api.ts'

export function loadOtelApi(): OtelApi | undefined {
  return undefined
}
