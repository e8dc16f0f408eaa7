/**
 * @module observability-guide.test
 * The observability guide's setup does what the guide says. Its "Turning it on" block, run as it
 * stands in a process of its own, sends the metrics and the spans of a call over OTLP/HTTP to a
 * collector on 127.0.0.1, the last of them when the process is stopped. And a server driven
 * through every instrument, under the guide's metric pipeline (a MeterProvider whose
 * PeriodicExportingMetricReader exports to memory instead of OTLP), exports exactly the
 * instruments of the guide's metrics table: a name the table lacks, or one nothing records, fails.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { metrics } from '@opentelemetry/api'
import {
  AggregationTemporality,
  InMemoryMetricExporter,
  MeterProvider,
  PeriodicExportingMetricReader,
} from '@opentelemetry/sdk-metrics'
import { createServer, elicitForm } from '@tessera/core'
import { listen } from '@tessera/core/http'
import { wireMappings } from '@tessera/core/protocol'
import { generateStateKey } from '@tessera/core/request-state'
import { sqliteReplayStore } from '@tessera/store-sqlite'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { ROOT } from '../architecture/import-scan.ts'
import { blockUnder } from '../architecture/markdown-code.ts'
import { LoggedProcess } from '../helpers/logged-process.ts'
import {
  capturingLogger,
  errorOf,
  McpHttpClient,
  type Reply,
  resultOf,
  SseReader,
  textOf,
} from '../helpers/mcp-http.ts'
import { moduleFolder } from '../helpers/module-folder.ts'
import { otlpCollector } from '../helpers/otlp-collector.ts'

const GUIDE = 'docs/guides/observability.md'
const guide = readFileSync(join(ROOT, GUIDE), 'utf8')
const SCOPE = '@tessera/core'

/** The instruments the guide's metrics table names, sorted. */
function documentedInstruments(): string[] {
  const start = guide.indexOf('\n## Metrics\n')
  const section = guide.slice(start, guide.indexOf('\n## ', start + 1))
  return [...section.matchAll(/^\| `([a-z_.]+)` +\|/gm)].map((match) => match[1]!).sort()
}

describe('observability guide: the setup, run as written', () => {
  it('exportsTheMetricsAndSpansOfACallOverOtlpAndTheLastOfThemOnSigterm', async () => {
    const collector = await otlpCollector()
    const folder = moduleFolder()
    const script = folder.write('server.ts', blockUnder(GUIDE, guide, '## Turning it on').code)
    const server = new LoggedProcess(script, [], { PORT: '0', OTEL_EXPORTER_OTLP_ENDPOINT: collector.url })
    try {
      const [, url] = await server.waitForOutput(/listening on (\S+)/)
      const reply = await new McpHttpClient(url!).callTool('service_status')
      expect(textOf(resultOf(reply))).toBe('all green')
      // The export interval is far off: what arrives was sent by the shutdown on SIGTERM.
      expect(await server.stop()).toBe(0)

      const exported = collector.metrics()
      const names = [...new Set(exported.map((m) => m.name))]
      expect(names).toEqual(expect.arrayContaining(['mcp.server.operation.duration', 'tessera.requests']))
      expect(names.filter((name) => !documentedInstruments().includes(name))).toEqual([])
      expect(exported.every((m) => m.scope === SCOPE && m.resource['service.name'] === 'ops')).toBe(true)
      const points = (name: string) => exported.filter((m) => m.name === name).flatMap((m) => m.points)
      expect(points('tessera.requests')).toContainEqual({ 'mcp.method.name': 'tools/call', outcome: 'ok' })
      expect(points('mcp.server.operation.duration')).toContainEqual({
        'mcp.method.name': 'tools/call',
        'gen_ai.tool.name': 'service_status',
      })
      expect(collector.spans()).toContainEqual(
        expect.objectContaining({ name: 'tools/call service_status', kind: 2 }),
      )
    } finally {
      await server.stop()
      folder.remove()
      await collector.close()
    }
  })
})

describe('observability guide: the metrics table', () => {
  it('namesEveryInstrumentAServerRecordsAndNoOther', async () => {
    const exporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE)
    const meterProvider = new MeterProvider({
      readers: [new PeriodicExportingMetricReader({ exporter, exportIntervalMillis: 60_000 })],
    })
    metrics.setGlobalMeterProvider(meterProvider)
    const replay = sqliteReplayStore({ path: ':memory:' })
    const app = createServer({
      name: 'metrics',
      version: '1.0.0',
      logger: capturingLogger(),
      requestState: { keys: [generateStateKey('metrics')] },
      stores: { replay },
    })
    app.tool('status', { description: 'answers at once' }, () => 'fine')
    app.tool('report', { description: 'once a minute', rateLimit: { calls: 1, perMs: 60_000 } }, () => 'sent')
    app.tool('restart', { description: 'asks first', singleUse: true }, async (_args, ctx) => {
      const answer = await ctx.ask(
        'confirm',
        elicitForm({ message: 'Restart?', schema: z.object({ ok: z.boolean() }) }),
      )
      return answer.action === 'accept' && answer.content.ok ? 'restarted' : 'left running'
    })
    const running = await listen(app, { port: 0 })
    try {
      const client = new McpHttpClient(running.url)
      const yes = { confirm: { action: 'accept', content: { ok: true } } }
      const answer = async (question: Promise<Reply>) => ({
        requestState: resultOf(await question).requestState,
        inputResponses: yes,
      })
      await client.callTool('status')
      const first = await answer(client.callTool('restart'))
      const second = await answer(client.callTool('restart'))
      // An answer acted on: a state opened, a single-use outcome, the store's timings.
      expect(textOf(resultOf(await client.callTool('restart', {}, { extra: first })))).toBe('restarted')
      // A state refused.
      const forged = { ...first, requestState: 'tss1.forged.AAAA' }
      expect(errorOf(await client.callTool('restart', {}, { extra: forged })).code).toBe(
        wireMappings.TESSERA_INVALID_STATE.jsonrpc,
      )
      // A store that fails: the claim of the second answer cannot be made.
      await replay.close()
      expect(errorOf(await client.callTool('restart', {}, { extra: second })).code).toBe(
        wireMappings.TESSERA_STORE_UNAVAILABLE.jsonrpc,
      )
      // A rate limit's refusal, and its store's takes.
      expect(textOf(resultOf(await client.callTool('report')))).toBe('sent')
      expect(errorOf(await client.callTool('report')).code).toBe(wireMappings.TESSERA_RATE_LIMITED.jsonrpc)
      // A listen stream opened (and closed).
      const stream = new SseReader(
        await client.open('subscriptions/listen', { notifications: { toolsListChanged: true } }),
      )
      expect((await stream.next())?.method).toBe('notifications/subscriptions/acknowledged')
      await stream.cancel()

      await meterProvider.forceFlush()
      const recorded = exporter
        .getMetrics()
        .flatMap((resource) => resource.scopeMetrics)
        .filter((scope) => scope.scope.name === SCOPE)
        .flatMap((scope) => scope.metrics.map((metric) => metric.descriptor.name))
      expect([...new Set(recorded)].sort()).toEqual(documentedInstruments())
      expect(documentedInstruments()).toHaveLength(10)
    } finally {
      await running.close()
      await meterProvider.shutdown()
      metrics.disable()
    }
  })
})
