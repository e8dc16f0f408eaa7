/**
 * The same server with the OpenTelemetry SDK registered: every span sampled and batched, metrics
 * collected, both handed to exporters that drop them (the cost of recording, not of a network).
 */
import { context, metrics, trace } from '@opentelemetry/api'
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks'
import { ExportResultCode } from '@opentelemetry/core'
import {
  MeterProvider,
  PeriodicExportingMetricReader,
  type PushMetricExporter,
} from '@opentelemetry/sdk-metrics'
import {
  AlwaysOnSampler,
  BasicTracerProvider,
  BatchSpanProcessor,
  type SpanExporter,
} from '@opentelemetry/sdk-trace-base'
import { listen } from '@tessera/core/http'
import { benchApp } from './tessera-app.ts'

const dropSpans: SpanExporter = {
  export: (_spans, done) => done({ code: ExportResultCode.SUCCESS }),
  shutdown: async () => {},
}
const dropMetrics: PushMetricExporter = {
  export: (_metrics, done) => done({ code: ExportResultCode.SUCCESS }),
  forceFlush: async () => {},
  shutdown: async () => {},
}
context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable())
trace.setGlobalTracerProvider(
  new BasicTracerProvider({
    sampler: new AlwaysOnSampler(),
    spanProcessors: [new BatchSpanProcessor(dropSpans)],
  }),
)
metrics.setGlobalMeterProvider(
  new MeterProvider({
    readers: [new PeriodicExportingMetricReader({ exporter: dropMetrics, exportIntervalMillis: 1000 })],
  }),
)

const server = await listen(benchApp(), {
  host: '127.0.0.1',
  port: Number(process.env.PORT ?? 0),
  path: '/mcp',
})
console.log(`READY ${server.port}`)
