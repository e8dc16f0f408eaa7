/**
 * @module otel
 * The OpenTelemetry SDK as a test registers it: spans into an in-memory exporter (every span
 * sampled, exported as it ends), metrics read on demand, W3C trace context, and the async-hooks
 * context manager so a request's steps nest under it. `uninstall` puts the globals back.
 */
import { context, metrics, propagation, trace } from '@opentelemetry/api'
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks'
import { W3CTraceContextPropagator } from '@opentelemetry/core'
import {
  AggregationTemporality,
  MeterProvider,
  type MetricData,
  MetricReader,
} from '@opentelemetry/sdk-metrics'
import {
  AlwaysOnSampler,
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base'

class OnDemandReader extends MetricReader {
  constructor() {
    super({ aggregationTemporalitySelector: () => AggregationTemporality.CUMULATIVE })
  }
  protected override async onForceFlush(): Promise<void> {}
  protected override async onShutdown(): Promise<void> {}
}

export interface InstalledOtel {
  spans(): ReadableSpan[]
  metrics(): Promise<MetricData[]>
  /** The sum of a counter's (or the count of a histogram's) points whose attributes include `match`. */
  total(name: string, match?: Record<string, unknown>): Promise<number>
  reset(): void
  uninstall(): Promise<void>
}

export function installOtel(): InstalledOtel {
  const exporter = new InMemorySpanExporter()
  const tracerProvider = new BasicTracerProvider({
    sampler: new AlwaysOnSampler(),
    spanProcessors: [new SimpleSpanProcessor(exporter)],
  })
  const reader = new OnDemandReader()
  const meterProvider = new MeterProvider({ readers: [reader] })
  const contextManager = new AsyncLocalStorageContextManager().enable()
  context.setGlobalContextManager(contextManager)
  propagation.setGlobalPropagator(new W3CTraceContextPropagator())
  trace.setGlobalTracerProvider(tracerProvider)
  metrics.setGlobalMeterProvider(meterProvider)
  const collect = async () => (await reader.collect()).resourceMetrics.scopeMetrics.flatMap((s) => s.metrics)
  return {
    spans: () => exporter.getFinishedSpans(),
    metrics: collect,
    async total(name, match = {}) {
      const metric = (await collect()).find((m) => m.descriptor.name === name)
      let sum = 0
      for (const point of metric?.dataPoints ?? []) {
        const attributes = point.attributes as Record<string, unknown>
        if (!Object.entries(match).every(([key, value]) => attributes[key] === value)) continue
        const value = point.value as number | { count: number }
        sum += typeof value === 'number' ? value : value.count
      }
      return sum
    },
    reset: () => exporter.reset(),
    async uninstall() {
      await tracerProvider.shutdown()
      await meterProvider.shutdown()
      trace.disable()
      metrics.disable()
      propagation.disable()
      context.disable()
    },
  }
}
