/**
 * @module otel-api
 * `@opentelemetry/api`, when the application installed it (an optional peer dependency) and
 * something registered with it. The API keeps its registrations (tracer and meter providers,
 * context manager, propagator) on a process-wide symbol, so the SDK an application registers
 * through its own import of the package is the one seen here. Until that symbol exists every call
 * of the API is a no-op, so the package is not loaded before then: a server without an SDK starts
 * without it (loading it is a tenth of the startup), and one whose SDK registers later loads it
 * on the first request after that, synchronously (`#otel-loader`: by `require` where there is one;
 * a Worker, which has none, traces through its platform instead).
 *
 * The types below are the part of the API Tessera calls, written out here so that no declaration
 * file of `@tessera/core` names the optional package: a project without it type-checks.
 */
import { loadOtelApi } from '#otel-loader'

export type Attributes = Record<string, string | number | boolean | undefined>

/** An OpenTelemetry context (immutable; `setValue` returns a new one). */
export interface Context {
  getValue(key: symbol): unknown
  setValue(key: symbol, value: unknown): Context
}

export interface SpanContext {
  traceId: string
  spanId: string
  traceFlags: number
}

export interface Span {
  spanContext(): SpanContext
  setAttribute(key: string, value: string | number | boolean): this
  setAttributes(attributes: Attributes): this
  setStatus(status: { code: number; message?: string }): this
  addLink(link: { context: SpanContext }): this
  isRecording(): boolean
  end(): void
}

export interface Tracer {
  startSpan(name: string, options?: { kind?: number }, context?: Context): Span
  startActiveSpan<F extends (span: Span) => unknown>(
    name: string,
    options: { kind?: number },
    fn: F,
  ): ReturnType<F>
}

export interface Counter {
  add(value: number, attributes?: Attributes): void
}

export interface Histogram {
  record(value: number, attributes?: Attributes): void
}

interface InstrumentOptions {
  description?: string
  unit?: string
  advice?: { explicitBucketBoundaries?: number[] }
}

export type ObservableCallback = (result: {
  observe(value: number, attributes?: Attributes): void
}) => void | Promise<void>

export interface ObservableGauge {
  addCallback(callback: ObservableCallback): void
  removeCallback(callback: ObservableCallback): void
}

export interface Meter {
  createHistogram(name: string, options?: InstrumentOptions): Histogram
  createCounter(name: string, options?: InstrumentOptions): Counter
  createUpDownCounter(name: string, options?: InstrumentOptions): Counter
  createObservableGauge(name: string, options?: InstrumentOptions): ObservableGauge
}

export interface OtelApi {
  ROOT_CONTEXT: Context
  createContextKey(description: string): symbol
  context: { active(): Context; with<T>(context: Context, fn: () => T): T }
  trace: {
    /** The global provider: a proxy whose delegate is a no-op one until an SDK registers. */
    getTracerProvider(): { getDelegate?(): object }
    getTracer(name: string, version?: string): Tracer
    getActiveSpan(): Span | undefined
    setSpan(context: Context, span: Span): Context
  }
  propagation: { extract(context: Context, carrier: Record<string, string>): Context }
  metrics: { getMeter(name: string): Meter }
  /** The meter every call returns while no SDK is registered. */
  createNoopMeter(): Meter
}

/** Where API version 1 keeps its registrations: absent until the first one. */
const REGISTRATIONS = Symbol.for('opentelemetry.js.api.1')
/** null until loaded; undefined when the package is not installed. */
let loaded: OtelApi | undefined | null = null

/** The API once anything registered with it; undefined before that, or when it is not installed. */
export function otelApi(): OtelApi | undefined {
  if (loaded !== null) return loaded
  if ((globalThis as Record<symbol, unknown>)[REGISTRATIONS] === undefined) return undefined
  loaded = loadOtelApi()
  return loaded
}
