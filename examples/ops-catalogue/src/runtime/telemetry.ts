/**
 * @module telemetry
 * `--otel`: the OpenTelemetry SDK for this process, registered before the server takes a request.
 * Traces and metrics go over OTLP/HTTP to `OTEL_EXPORTER_OTLP_ENDPOINT` (the standard variable;
 * default http://localhost:4318), spans batched, metrics every `OTEL_METRIC_EXPORT_INTERVAL` ms
 * (default a minute); `--metrics-port N` also serves the metrics for
 * Prometheus at `http://HOST:N/metrics`. Tessera itself needs nothing but `@opentelemetry/api`:
 * this module is the application's choice of SDK and exporters.
 */
import { context, metrics, propagation, trace } from '@opentelemetry/api'
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks'
import { W3CTraceContextPropagator } from '@opentelemetry/core'
import { OTLPMetricExporter } from '@opentelemetry/exporter-metrics-otlp-http'
import { PrometheusExporter } from '@opentelemetry/exporter-prometheus'
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http'
import { resourceFromAttributes } from '@opentelemetry/resources'
import { type IMetricReader, MeterProvider, PeriodicExportingMetricReader } from '@opentelemetry/sdk-metrics'
import { BasicTracerProvider, BatchSpanProcessor } from '@opentelemetry/sdk-trace-base'
import { SERVER_NAME, SERVER_VERSION } from '../server/create-ops-server.ts'

export interface Telemetry {
  /** Sends what is still buffered, then stops. */
  shutdown(): Promise<void>
}

export function startTelemetry(options: {
  /** Send traces and metrics over OTLP/HTTP. */
  otlp: boolean
  host: string
  metricsPort: number | undefined
}): Telemetry {
  const resource = resourceFromAttributes({ 'service.name': SERVER_NAME, 'service.version': SERVER_VERSION })
  const tracerProvider = new BasicTracerProvider({
    resource,
    spanProcessors: options.otlp ? [new BatchSpanProcessor(new OTLPTraceExporter())] : [],
  })
  const readers: IMetricReader[] = []
  if (options.otlp) {
    // The standard variable, which the metric reader itself does not read (default one minute).
    const interval = Number(process.env.OTEL_METRIC_EXPORT_INTERVAL) || 60_000
    readers.push(
      new PeriodicExportingMetricReader({
        exporter: new OTLPMetricExporter(),
        exportIntervalMillis: interval,
        exportTimeoutMillis: Math.min(30_000, interval),
      }),
    )
  }
  if (options.metricsPort !== undefined) {
    readers.push(new PrometheusExporter({ host: options.host, port: options.metricsPort }))
  }
  const meterProvider = new MeterProvider({ resource, readers })
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable())
  propagation.setGlobalPropagator(new W3CTraceContextPropagator())
  trace.setGlobalTracerProvider(tracerProvider)
  metrics.setGlobalMeterProvider(meterProvider)
  return {
    async shutdown() {
      await Promise.allSettled([tracerProvider.shutdown(), meterProvider.shutdown()])
    },
  }
}
