/**
 * @module otlp-collector
 * The receiving end of OTLP/HTTP with JSON bodies, on 127.0.0.1: it keeps what an OpenTelemetry
 * exporter POSTs to `/v1/metrics` and `/v1/traces` and reads back metric names, their points'
 * attributes and the spans, so a test sees what a real exporter sent over the network.
 */
import { createServer, type IncomingMessage } from 'node:http'
import type { AddressInfo } from 'node:net'
import { gunzipSync } from 'node:zlib'
import type { Json } from './json-rpc.ts'

interface KeyValue {
  key: string
  value: Record<string, unknown>
}

export interface OtlpMetric {
  name: string
  /** The instrumentation scope (the meter's name). */
  scope: string
  resource: Record<string, unknown>
  /** Each data point's attributes. */
  points: Record<string, unknown>[]
}

export interface OtlpSpan {
  name: string
  /** OTLP's numbering: 2 is SERVER. */
  kind: number
  attributes: Record<string, unknown>
}

export interface OtlpCollector {
  /** What OTEL_EXPORTER_OTLP_ENDPOINT is set to. */
  readonly url: string
  metrics(): OtlpMetric[]
  spans(): OtlpSpan[]
  close(): Promise<void>
}

export async function otlpCollector(): Promise<OtlpCollector> {
  const bodies: { path: string; body: Json }[] = []
  const server = createServer(async (request, response) => {
    bodies.push({
      path: request.url ?? '',
      body: JSON.parse((await bodyOf(request)).toString('utf8')) as Json,
    })
    response.writeHead(200, { 'content-type': 'application/json', connection: 'close' }).end('{}')
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  const sent = (path: string) => bodies.filter((b) => b.path === path).map((b) => b.body)
  return {
    url: `http://127.0.0.1:${port}`,
    metrics: () =>
      sent('/v1/metrics').flatMap((body) =>
        list(body.resourceMetrics).flatMap((rm) =>
          list(rm.scopeMetrics).flatMap((sm) =>
            list(sm.metrics).map((metric) => ({
              name: String(metric.name),
              scope: String((sm.scope as Json | undefined)?.name),
              resource: attributes((rm.resource as Json | undefined)?.attributes),
              points: pointsOf(metric).map((point) => attributes(point.attributes)),
            })),
          ),
        ),
      ),
    spans: () =>
      sent('/v1/traces').flatMap((body) =>
        list(body.resourceSpans).flatMap((rs) =>
          list(rs.scopeSpans).flatMap((ss) =>
            list(ss.spans).map((span) => ({
              name: String(span.name),
              kind: Number(span.kind),
              attributes: attributes(span.attributes),
            })),
          ),
        ),
      ),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

async function bodyOf(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = []
  for await (const chunk of request) chunks.push(chunk as Buffer)
  const body = Buffer.concat(chunks)
  return request.headers['content-encoding'] === 'gzip' ? gunzipSync(body) : body
}

function list(value: unknown): Json[] {
  return Array.isArray(value) ? (value as Json[]) : []
}

/** A sum, gauge or histogram's points, whichever the metric is. */
function pointsOf(metric: Json): Json[] {
  for (const kind of ['sum', 'gauge', 'histogram', 'exponentialHistogram']) {
    const data = metric[kind] as Json | undefined
    if (data !== undefined) return list(data.dataPoints)
  }
  return []
}

/** OTLP's `[{ key, value: { stringValue } }]` as `{ key: value }`. */
function attributes(value: unknown): Record<string, unknown> {
  return Object.fromEntries(
    list(value)
      .filter(isKeyValue)
      .map(({ key, value }) => [key, Object.values(value)[0]]),
  )
}

function isKeyValue(item: Json): item is Json & KeyValue {
  return typeof item.key === 'string' && typeof item.value === 'object' && item.value !== null
}
