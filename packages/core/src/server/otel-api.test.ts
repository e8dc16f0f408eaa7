/**
 * @module otel-api.test
 * The API is loaded only once something registered with it, and a server made before the
 * application's SDK registered traces its requests as soon as it has.
 */
import { createRequire } from 'node:module'
import { afterAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { fetchClient } from '../../../../test/helpers/fetch-client.ts'
import { capturingLogger } from '../../../../test/helpers/mcp-http.ts'
import type { InstalledOtel } from '../../../../test/helpers/otel.ts'
import { otelApi } from '../observation/telemetry/otel-api.ts'
import { createServer } from './create-server.ts'

const REGISTRATIONS = Symbol.for('opentelemetry.js.api.1')
const apiLoadedThroughRequire = () =>
  Object.keys(createRequire(import.meta.url).cache).some((path) => path.includes('@opentelemetry/api/'))

let otel: InstalledOtel | undefined
afterAll(() => otel?.uninstall())

describe('otelApi', () => {
  it('loadsNothingWhileNothingIsRegisteredAndTracesOnceAnSdkRegisters', async () => {
    const app = createServer({ name: 'late-sdk', version: '1.0.0', logger: capturingLogger() })
    app.tool(
      'greet',
      { description: 'greets', input: z.object({ name: z.string() }) },
      ({ name }) => `Hi ${name}`,
    )
    const client = fetchClient(app)
    await client.callTool('greet', { name: 'Ada' })
    expect((globalThis as Record<symbol, unknown>)[REGISTRATIONS]).toBeUndefined()
    expect(otelApi()).toBeUndefined()
    expect(apiLoadedThroughRequire()).toBe(false)

    // The application's SDK registers after the server was made.
    const { installOtel } = await import('../../../../test/helpers/otel.ts')
    otel = installOtel()
    await client.callTool('greet', { name: 'Grace' })
    expect(otelApi()).toBeDefined()
    expect(otel.spans().map((span) => span.name)).toContain('tools/call greet')
  })
})
