/**
 * @module otel.test
 * `npm start -- --otel --metrics-port N` as a real process, with a local OTLP/HTTP receiver as
 * its `OTEL_EXPORTER_OTLP_ENDPOINT`: a rollback asked and answered arrives as two
 * `tools/call rollback` spans of the conventions, the answer's linked to the question's, and no
 * argument value or state travels with them; the metrics are served for Prometheus.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { askRollback, McpClient, type ToolResult } from './mcp-client.ts'
import { freePort, OpsProcess } from './spawn-ops.ts'

interface OtlpSpan {
  name: string
  traceId: string
  spanId: string
  attributes: Array<{ key: string; value: Record<string, unknown> }>
  links?: Array<{ traceId: string; spanId: string }>
}

const dir = mkdtempSync(join(tmpdir(), 'ops-catalogue-otel-'))
const received: { spans: OtlpSpan[]; bodies: string[]; metrics: number } = {
  spans: [],
  bodies: [],
  metrics: 0,
}
let receiver: Server
let ops: OpsProcess
let client: McpClient
let metricsUrl: string

beforeAll(async () => {
  receiver = createServer((req, res) => {
    let body = ''
    req.on('data', (chunk: Buffer) => {
      body += chunk.toString()
    })
    req.on('end', () => {
      received.bodies.push(body)
      if (req.url === '/v1/traces') {
        const parsed = JSON.parse(body) as {
          resourceSpans: Array<{ scopeSpans: Array<{ spans: OtlpSpan[] }> }>
        }
        for (const r of parsed.resourceSpans) for (const s of r.scopeSpans) received.spans.push(...s.spans)
      }
      if (req.url === '/v1/metrics') received.metrics++
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}')
    })
  })
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve))
  const otlpPort = (receiver.address() as { port: number }).port
  const [port, metricsPort] = [await freePort(), await freePort()]
  ops = new OpsProcess(
    ['--data', dir, '--rollback-seconds', '0', '--otel', '--metrics-port', String(metricsPort)],
    {
      PORT: String(port),
      OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${otlpPort}`,
      OTEL_BSP_SCHEDULE_DELAY: '100',
      OTEL_METRIC_EXPORT_INTERVAL: '500',
    },
  )
  await ops.waitForEvent('listening')
  client = new McpClient(`http://127.0.0.1:${port}/mcp`)
  metricsUrl = `http://127.0.0.1:${metricsPort}/metrics`
}, 30_000)

afterAll(async () => {
  await ops?.stop()
  await new Promise((resolve) => receiver?.close(resolve))
  rmSync(dir, { recursive: true, force: true })
})

const attribute = (span: OtlpSpan, key: string) => {
  const value = span.attributes.find((a) => a.key === key)?.value
  return value === undefined ? undefined : Object.values(value)[0]
}

describe('--otel', () => {
  it('sendsTheSpansOfARollbackOverOtlpTheAnswerLinkedToTheQuestion', async () => {
    const asked = await askRollback(client, 'checkout')
    const retry = asked.accept()
    const done = await client.callTool('rollback', { service: 'checkout' }, retry)
    expect((done.result as ToolResult).structuredContent).toMatchObject({ outcome: 'rolled_back' })
    let rollbacks: OtlpSpan[] = []
    for (let i = 0; i < 100 && rollbacks.length < 2; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100))
      rollbacks = received.spans.filter((s) => s.name === 'tools/call rollback')
    }
    expect(rollbacks).toHaveLength(2)
    const [question, reply] = rollbacks as [OtlpSpan, OtlpSpan]
    expect(attribute(question, 'gen_ai.tool.name')).toBe('rollback')
    expect(attribute(question, 'mcp.method.name')).toBe('tools/call')
    expect(attribute(reply, 'tessera.mrtr.round')).toBe(2)
    expect(reply.links?.map((l) => [l.traceId, l.spanId])).toEqual([[question.traceId, question.spanId]])
    expect(received.spans.some((s) => s.name === 'handler' && s.traceId === reply.traceId)).toBe(true)
    const everything = received.bodies.join('\n')
    expect(everything).not.toContain(String(retry.requestState))
    expect(everything).not.toContain(asked.offered[0]!)
  }, 20_000)

  it('servesTheMetricsForPrometheusAndSendsThemOverOtlp', async () => {
    const text = await (await fetch(metricsUrl)).text()
    expect(text).toContain('mcp_server_operation_duration')
    expect(text).toMatch(/tessera_requests(_total)?\{[^}]*mcp_method_name="tools\/call"/)
    for (let i = 0; i < 50 && received.metrics === 0; i++)
      await new Promise((resolve) => setTimeout(resolve, 100))
    expect(received.metrics).toBeGreaterThan(0)
  }, 20_000)
})
