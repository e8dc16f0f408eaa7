/**
 * @module telemetry-handshake.test
 * The handshake era under OpenTelemetry, over real HTTP: a tool that asks a 2025-11-25 client
 * sends it a real `elicitation/create`, and that request is a `CLIENT` child span of the call's
 * span, so the time spent waiting for the person shows in the trace.
 */
import { createServer, elicitForm } from '@tessera/core'
import { listen } from '@tessera/core/http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { acceptWith, HandshakeClient, resultOf, textOf } from '../helpers/handshake-client.ts'
import { capturingLogger } from '../helpers/mcp-http.ts'
import { type InstalledOtel, installOtel } from '../helpers/otel.ts'

let otel: InstalledOtel
beforeAll(() => {
  otel = installOtel()
})
afterAll(() => otel.uninstall())

describe('telemetry in the handshake era', () => {
  it('makesTheRequestToTheClientAClientChildSpanOfTheCall', async () => {
    const app = createServer({ name: 'otel-handshake', version: '1', logger: capturingLogger() })
    app.tool('confirm', { description: 'asks' }, async (_a, ctx) => {
      const answer = await ctx.ask(
        'sure',
        elicitForm({ message: 'Sure?', schema: z.object({ sure: z.boolean() }) }),
      )
      return answer.action === 'accept' && answer.content.sure ? 'confirmed' : 'not confirmed'
    })
    const running = await listen(app, { host: '127.0.0.1', port: 0 })
    try {
      const session = await HandshakeClient.connect(running.url)
      const reply = await session.callTool('confirm', {}, { onRequest: acceptWith({ sure: true }) })
      expect(textOf(resultOf(reply))).toBe('confirmed')
      const calls = otel.spans().filter((s) => s.name === 'tools/call confirm')
      const asked = otel.spans().filter((s) => s.name === 'elicitation/create')
      expect(asked).toHaveLength(1)
      expect(asked[0]?.kind).toBe(2)
      expect(calls.map((c) => c.spanContext().spanId)).toContain(asked[0]?.parentSpanContext?.spanId)
      expect(calls[0]?.attributes['mcp.session.id']).toBe(session.sessionId)
    } finally {
      await running.close()
    }
  })
})
