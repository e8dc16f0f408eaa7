/**
 * @module telemetry
 * Traces and metrics through the OpenTelemetry API, as a subscriber of the server's observer,
 * following the semantic conventions for MCP: one server span per request
 * (`{mcp.method.name} {target}`), its parent taken from the request's `_meta` (`traceparent`,
 * `tracestate`) or else from the HTTP `traceparent` header, a child span per phase that costs
 * (argument validation, requestState open and seal, the single-use claim, the handler, a question
 * sent to the client), and the operation duration, request, requestState and single-use metrics. Without `@opentelemetry/api`, or without an SDK registered, nothing is
 * recorded and nothing but a few checks is paid. No token or state is ever recorded, and no
 * argument value or result unless the tool opted in (`trace`).
 *
 * A caller chooses method names, tool and prompt names, URIs and versions, so none of them is
 * recorded as sent: every metric attribute takes its value from what the server registered or
 * from a fixed set, and anything else is the one value `_OTHER`. A metric then has as many
 * series as the server has tools, prompts and methods, however many names a caller makes up.
 * Spans follow the same rule for names (a span named after a made-up tool would be as many
 * distinct names for a backend); a resource URI that resolves stays on its span, cut at 512.
 */
import { wireMappings } from '../../errors.ts'
import type { JsonObject } from '../../protocol/jsonrpc/message.ts'
import type { HeaderView } from '../../protocol/modern/header-view.ts'
import { HANDSHAKE_VERSIONS, MODERN_VERSIONS } from '../../protocol/modern/vocabulary.ts'
import type { CarriedSpan } from '../carried-span.ts'
import type { Phase, ReceivedRequest, RequestWatch, Step, StepEvent, Subscriber } from '../observer.ts'
import { refusalLabel } from '../state-refusals.ts'
import {
  type Attributes,
  type Context,
  type Counter,
  type Histogram,
  type Meter,
  type ObservableCallback,
  type ObservableGauge,
  otelApi,
  type Span,
  type Tracer,
} from './otel-api.ts'

const SCOPE = '@tessera/core'
/** Where the active context keeps the request's own server span (steps below it have their own). */
const REQUEST_SPAN = Symbol.for('tessera.request-span')
const INTERNAL_KIND = 0
const SERVER_KIND = 1
const CLIENT_KIND = 2
const ERROR_STATUS = 2
/** Longest argument or result JSON put on a span for a tool that opted in. */
const MAX_TRACED_VALUE = 8192
/** Longest resource URI put on a span (one that resolved: any other is `OTHER`). */
const MAX_TRACED_URI = 512

/**
 * What telemetry records for a value it must not echo: a method, tool, prompt, resource or
 * version the server does not know, or a reason, outcome, store or error outside its fixed set.
 * The OpenTelemetry conventions spell an unlisted value this way (`http.request.method`).
 */
const OTHER = '_OTHER'

/** What the server knows: besides the fixed sets below, the only values telemetry records. */
export interface Known {
  /** The request methods the server serves, in either era. */
  readonly methods: ReadonlySet<string>
  tool(name: string): boolean
  prompt(name: string): boolean
  /** A registered resource, or a URI that a registered template matches. */
  resource(uri: string): boolean
}

const VERSIONS: ReadonlySet<string> = new Set([...MODERN_VERSIONS, ...HANDSHAKE_VERSIONS])
/** `error.type`: a JSON-RPC code of the error table (in either era), or a tool error. */
const ERROR_TYPES: ReadonlySet<string> = new Set([
  ...Object.values(wireMappings).flatMap((m) =>
    ('handshake' in m ? [m.jsonrpc, m.handshake] : [m.jsonrpc]).map(String),
  ),
  'tool_error',
])
const SINGLE_USE_OUTCOMES: ReadonlySet<string> = new Set([
  'executed',
  'replayed',
  'in_progress',
  'lease_lost',
  'store_error',
])
const STORES: ReadonlySet<string> = new Set(['replay', 'tasks', 'rateLimits'])
const STORE_OPERATIONS: ReadonlySet<string> = new Set([
  // the single-use guard's
  'epoch',
  'claim',
  'renew',
  'complete',
  'release',
  // the task service's
  'create',
  'get',
  'replace',
  // the rate limiter's
  'take',
])
const RATE_LIMIT_SCOPES: ReadonlySet<string> = new Set(['caller', 'method', 'tool', 'server'])

/** The steps telemetry records something of: a metric, or an attribute on the request span. */
const RECORDED_STEPS: ReadonlySet<Step> = new Set<Step>([
  'state-opened',
  'state-refused',
  'round-answered',
  'single-use',
  'guard',
  'store-call',
  'listen-stream',
  'traced-value',
  'rate-limited',
])

/** `value` when it is in `allowed`, else `OTHER`. */
function bounded(value: unknown, allowed: ReadonlySet<unknown>): string {
  return allowed.has(value) ? String(value) : OTHER
}

interface Instruments {
  duration: Histogram
  requests: Counter
  stateOpened: Counter
  stateRefused: Counter
  singleUse: Counter
  listenStreams: Counter
  storeDuration: Histogram
  storeErrors: Counter
  rateLimited: Counter
  /** Observes the handshake sessions the session store holds, when it can count them. */
  sessions: { gauge: ObservableGauge; callback: ObservableCallback } | undefined
}

/** One request's span and clock; every method is safe to call whether or not anything records. */
class RequestSpan implements RequestWatch {
  readonly #telemetry: Telemetry
  readonly #span: Span | undefined
  readonly #context: Context | undefined
  readonly #started: number
  readonly #attributes: Attributes
  #errorType: string | undefined
  #outcome = 'ok'

  constructor(
    telemetry: Telemetry,
    span: Span | undefined,
    context: Context | undefined,
    attributes: Attributes,
  ) {
    this.#telemetry = telemetry
    this.#span = span
    this.#context = context
    this.#started = performance.now()
    this.#attributes = attributes
  }

  /** Runs `work` with this span as the active one, so the steps below it are its children. */
  run<T>(work: () => Promise<T>): Promise<T> {
    const otel = otelApi()
    if (otel === undefined || this.#context === undefined) return work()
    return otel.context.with(this.#context, work)
  }

  /** A JSON-RPC error answered this request. */
  failed(code: number, message: string): void {
    const type = bounded(String(code), ERROR_TYPES)
    this.#errorType = type
    this.#outcome = 'error'
    if (this.#span === undefined) return
    this.#span.setAttribute('error.type', type)
    this.#span.setAttribute('rpc.response.status_code', type)
    this.#span.setStatus({ code: ERROR_STATUS, message })
  }

  /** What kind of answer it was: `input_required`, `task`, a tool error. */
  answered(resultType: string | undefined, isError: boolean): void {
    if (resultType === 'input_required' || resultType === 'task') this.#outcome = resultType
    if (isError) {
      this.#errorType = 'tool_error'
      this.#outcome = 'tool_error'
      this.#span?.setAttribute('error.type', 'tool_error')
    }
  }

  end(): void {
    this.#span?.end()
    const metrics = this.#telemetry.instruments
    if (metrics === undefined) return
    const attributes: Attributes = { ...this.#attributes }
    if (this.#errorType !== undefined) attributes['error.type'] = this.#errorType
    metrics.duration.record((performance.now() - this.#started) / 1000, attributes)
    metrics.requests.add(1, {
      'mcp.method.name': this.#attributes['mcp.method.name'],
      outcome: this.#outcome,
    })
  }
}

/**
 * The OpenTelemetry subscriber of a server: it wants a step only while something records it (a
 * registered tracer with a recording span, or a meter provider for the metrics).
 */
export class Telemetry implements Subscriber {
  readonly steps: ReadonlySet<Step> = RECORDED_STEPS
  readonly #enabled: boolean
  readonly #version: string
  /** null until the API is there to give one. */
  #tracerOfApi: Tracer | null = null
  #instruments: Instruments | undefined | null
  #countSessions: (() => Promise<number>) | undefined
  readonly #known: Known

  /** `enabled: false` records nothing, whatever SDK the application registered. */
  constructor(version: string, enabled: boolean, known: Known) {
    this.#enabled = enabled
    this.#version = version
    this.#instruments = enabled ? null : undefined
    this.#known = known
  }

  /** The tracer, once the API is loaded (a proxy that records once an SDK registers). */
  get #tracer(): Tracer | undefined {
    if (!this.#enabled) return undefined
    if (this.#tracerOfApi === null) {
      const otel = otelApi()
      if (otel === undefined) return undefined
      this.#tracerOfApi = otel.trace.getTracer(SCOPE, this.#version)
    }
    return this.#tracerOfApi
  }

  /**
   * The metric instruments, made on first use (after the application registered its SDK); none
   * while no meter provider is registered, so a server without an SDK builds no attributes.
   */
  get instruments(): Instruments | undefined {
    if (this.#instruments !== null) return this.#instruments
    const otel = otelApi()
    const meter = otel?.metrics.getMeter(SCOPE)
    if (
      otel === undefined ||
      meter === undefined ||
      meter.constructor === otel.createNoopMeter().constructor
    ) {
      this.#instruments = undefined
      return undefined
    }
    this.#instruments = {
      duration: meter.createHistogram('mcp.server.operation.duration', {
        description: 'Duration of MCP requests as the server saw them.',
        unit: 's',
        advice: {
          explicitBucketBoundaries: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
        },
      }),
      requests: meter.createCounter('tessera.requests', {
        description: 'MCP requests, by method and outcome.',
      }),
      stateOpened: meter.createCounter('tessera.request_state.opened', {
        description: 'requestStates opened, by the id of the key that opened them.',
      }),
      stateRefused: meter.createCounter('tessera.request_state.refused', {
        description: 'requestStates refused, by reason (never sent to the client).',
      }),
      singleUse: meter.createCounter('tessera.single_use.outcomes', {
        description: 'Single-use answers: executed, replayed, in progress, lease lost, store error.',
      }),
      listenStreams: meter.createUpDownCounter('tessera.listen.streams', {
        description: 'Open subscriptions/listen streams.',
      }),
      storeDuration: meter.createHistogram('tessera.store.duration', {
        description: 'Calls to the single-use and task stores, by store and operation.',
        unit: 's',
        advice: {
          explicitBucketBoundaries: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1, 5],
        },
      }),
      storeErrors: meter.createCounter('tessera.store.errors', {
        description: 'Store calls that failed or timed out, by store and operation.',
      }),
      rateLimited: meter.createCounter('tessera.rate_limit.refusals', {
        description:
          'Requests refused by a rate limit, by its scope (caller, method, tool, server) and method.',
      }),
      sessions: this.#sessionGauge(meter),
    }
    return this.#instruments
  }

  /**
   * Reports `count` as the `tessera.handshake.sessions` gauge: the live sessions of the session
   * store, which every instance sharing it reports alike (aggregate them with max, not sum).
   */
  countSessions(count: () => Promise<number>): void {
    this.#countSessions = count
  }

  /** Stops observing anything of this server's (its stores are closing). */
  close(): void {
    const sessions = this.#instruments?.sessions
    sessions?.gauge.removeCallback(sessions.callback)
    this.#countSessions = undefined
  }

  #sessionGauge(meter: Meter): Instruments['sessions'] {
    const count = this.#countSessions
    if (count === undefined) return undefined
    const gauge = meter.createObservableGauge('tessera.handshake.sessions', {
      description: 'Live handshake-era (2025-11-25) sessions in the session store.',
    })
    const callback: ObservableCallback = async (result) => {
      try {
        result.observe(await count())
      } catch {
        // A store that cannot answer now reports no value this time; its errors show elsewhere.
      }
    }
    gauge.addCallback(callback)
    return { gauge, callback }
  }

  wants(step: Step): boolean {
    switch (step) {
      case 'state-opened':
      case 'store-call':
      case 'listen-stream':
        return this.instruments !== undefined
      case 'state-refused':
      case 'single-use':
      case 'guard':
      case 'rate-limited':
        return this.instruments !== undefined || recordingRequestSpan() !== undefined
      case 'round-answered':
      case 'traced-value':
        return recordingRequestSpan() !== undefined
      default:
        return false
    }
  }

  on(event: StepEvent): void {
    switch (event.step) {
      case 'state-opened':
        this.instruments?.stateOpened.add(1, { 'tessera.key.id': event.keyId })
        return
      case 'state-refused':
        return this.#refused(event.reason)
      case 'single-use':
        // A stale answer is counted as the refusal it becomes.
        if (event.status !== 'stale') this.#singleUse(event.status)
        return
      case 'guard':
        if (event.type === 'lease_lost' || event.type === 'store_error') this.#singleUse(event.type)
        return
      case 'store-call':
        return this.#storeCall(event.store, event.operation, event.ms, event.ok)
      case 'listen-stream':
        this.instruments?.listenStreams.add(event.open ? 1 : -1)
        return
      case 'round-answered':
        return this.#round(event.round, event.link)
      case 'traced-value':
        return this.#value(`gen_ai.tool.call.${event.key}`, event.value)
      case 'rate-limited':
        return this.#rateLimited(event.scope, event.method, event.tool)
    }
  }

  /** Starts the server span of one request; none while nothing records. */
  request(input: ReceivedRequest): RequestWatch | undefined {
    const tracing = this.#tracer !== undefined && tracerRegistered()
    if (!tracing && this.instruments === undefined) return undefined
    const method = bounded(input.method, this.#known.methods)
    const attributes: Attributes = { 'mcp.method.name': method }
    const target = this.#targetOf(method, input.params)
    if (method === 'tools/call') attributes['gen_ai.tool.name'] = target ?? OTHER
    if (method === 'prompts/get') attributes['gen_ai.prompt.name'] = target ?? OTHER
    const tracer = this.#tracer
    const otel = otelApi()
    if (otel === undefined || tracer === undefined || !tracing)
      return new RequestSpan(this, undefined, undefined, attributes)
    const parent = parentContext(input.params, input.headers)
    // Without a registered target the name is the method alone, as the conventions want when
    // no low-cardinality target is available.
    const name = target === undefined ? method : `${method} ${target}`
    const span = tracer.startSpan(name, { kind: SERVER_KIND }, parent)
    if (!span.isRecording()) return new RequestSpan(this, undefined, undefined, attributes)
    span.setAttributes(attributes)
    span.setAttribute('jsonrpc.request.id', String(input.requestId))
    span.setAttribute('network.transport', input.headers === undefined ? 'pipe' : 'tcp')
    const version = metaOf(input.params)?.['io.modelcontextprotocol/protocolVersion']
    if (version !== undefined) span.setAttribute('mcp.protocol.version', bounded(version, VERSIONS))
    if (input.sessionId !== undefined) span.setAttribute('mcp.session.id', input.sessionId)
    if (method === 'resources/read') span.setAttribute('mcp.resource.uri', this.#uriOf(input.params))
    if (method === 'tools/call') span.setAttribute('gen_ai.operation.name', 'execute_tool')
    const context = otel.trace.setSpan(parent, span).setValue(REQUEST_SPAN, span)
    return new RequestSpan(this, span, context, attributes)
  }

  /** The registered tool or prompt a request names, if it names one. */
  #targetOf(method: string, params: JsonObject | undefined): string | undefined {
    const name = params?.name
    if (typeof name !== 'string') return undefined
    if (method === 'tools/call') return this.#known.tool(name) ? name : undefined
    if (method === 'prompts/get') return this.#known.prompt(name) ? name : undefined
    return undefined
  }

  /** The URI a read names, when the server has a resource there; only a span records it. */
  #uriOf(params: JsonObject | undefined): string {
    const uri = params?.uri
    if (typeof uri !== 'string' || !this.#known.resource(uri)) return OTHER
    return uri.length > MAX_TRACED_URI ? uri.slice(0, MAX_TRACED_URI) : uri
  }

  /**
   * Runs `work` in a child span of the active one, when that one records; a request this server
   * sends its client (in the handshake era) is a client span named after its method.
   */
  phase<T>(phase: Phase, work: () => T): T {
    const tracer = this.#tracer
    const otel = otelApi()
    if (otel === undefined || tracer === undefined || otel.trace.getActiveSpan()?.isRecording() !== true) {
      return work()
    }
    const client = typeof phase === 'object'
    const name = client ? phase.clientRequest : phase
    return tracer.startActiveSpan(name, { kind: client ? CLIENT_KIND : INTERNAL_KIND }, (span) => {
      let result: T
      try {
        result = work()
      } catch (error) {
        span.setStatus({ code: ERROR_STATUS })
        span.end()
        throw error
      }
      if (result instanceof Promise) {
        return result.then(
          (value) => {
            span.end()
            return value
          },
          (error: unknown) => {
            span.setStatus({ code: ERROR_STATUS })
            span.end()
            throw error
          },
        ) as T
      }
      span.end()
      return result
    })
  }

  /** The request span's trace and span id, for a state to carry into the next round. */
  link(): CarriedSpan | undefined {
    const span = recordingRequestSpan()
    if (span === undefined) return undefined
    const { traceId, spanId } = span.spanContext()
    return [traceId, spanId]
  }

  /** This request answers round `round` of a call whose first round is `first`: link and mark it. */
  #round(round: number, first: CarriedSpan | undefined): void {
    const span = recordingRequestSpan()
    if (span === undefined) return
    span.setAttribute('tessera.mrtr.round', round + 1)
    if (first !== undefined && isSpanIds(first)) {
      span.addLink({ context: { traceId: first[0], spanId: first[1], traceFlags: 1 } })
    }
  }

  /**
   * A value a tool opted in to record (its arguments or its result) on the request span, as JSON
   * cut at `MAX_TRACED_VALUE` characters; nothing is encoded when no span records.
   */
  #value(key: string, value: unknown): void {
    const span = recordingRequestSpan()
    if (span === undefined) return
    let json: string
    try {
      json = JSON.stringify(value) ?? 'null'
    } catch {
      json = '"[unserializable]"'
    }
    span.setAttribute(key, json.length > MAX_TRACED_VALUE ? `${json.slice(0, MAX_TRACED_VALUE)}…` : json)
  }

  /** A refused requestState: its reason on the span and in the metrics, never on the wire. */
  #refused(reason: string): void {
    const label = refusalLabel(reason)
    recordingRequestSpan()?.setAttribute('tessera.request_state.refusal', label)
    this.instruments?.stateRefused.add(1, { reason: label })
  }

  #singleUse(outcome: string): void {
    const label = bounded(outcome, SINGLE_USE_OUTCOMES)
    recordingRequestSpan()?.setAttribute('tessera.single_use.outcome', label)
    this.instruments?.singleUse.add(1, { outcome: label })
  }

  /** A request a rate limit refused: the limit's scope, the method and, for a tool's own limit, the tool. */
  #rateLimited(scope: string, method: string, tool: string | undefined): void {
    const label = bounded(scope, RATE_LIMIT_SCOPES)
    recordingRequestSpan()?.setAttribute('tessera.rate_limit.scope', label)
    const attributes: Attributes = {
      'tessera.rate_limit.scope': label,
      'mcp.method.name': bounded(method, this.#known.methods),
    }
    if (tool !== undefined) attributes['gen_ai.tool.name'] = this.#known.tool(tool) ? tool : OTHER
    this.instruments?.rateLimited.add(1, attributes)
  }

  /** One call to a store: `store` is `replay`, `tasks` or `rateLimits`. */
  #storeCall(store: string, operation: string, ms: number, ok: boolean): void {
    const metrics = this.instruments
    if (metrics === undefined) return
    const attributes = {
      'tessera.store': bounded(store, STORES),
      'tessera.store.operation': bounded(operation, STORE_OPERATIONS),
    }
    metrics.storeDuration.record(ms / 1000, attributes)
    if (!ok) metrics.storeErrors.add(1, attributes)
  }
}

/** The active span's ids, when one is recording. */
export function traceIds(): { traceId: string; spanId: string } | undefined {
  const span = otelApi()?.trace.getActiveSpan()
  if (span === undefined || !span.isRecording()) return undefined
  const { traceId, spanId } = span.spanContext()
  return { traceId, spanId }
}

/** Whether an SDK registered a tracer provider (the global proxy's delegate is not the no-op one). */
function tracerRegistered(): boolean {
  const delegate = otelApi()?.trace.getTracerProvider().getDelegate?.()
  return delegate === undefined || delegate.constructor.name !== 'NoopTracerProvider'
}

/** The request's own span, when it records. */
function recordingRequestSpan(): Span | undefined {
  const otel = otelApi()
  if (otel === undefined) return undefined
  const span = otel.context.active().getValue(REQUEST_SPAN) as Span | undefined
  return span?.isRecording() === true ? span : undefined
}

function metaOf(params: JsonObject | undefined): JsonObject | undefined {
  const meta = params?._meta
  return typeof meta === 'object' && meta !== null && !Array.isArray(meta) ? (meta as JsonObject) : undefined
}

/** The caller's trace context: from `_meta` (the MCP convention), else from the HTTP header. */
function parentContext(params: JsonObject | undefined, headers: HeaderView | undefined): Context {
  const api = otelApi()!
  const meta = metaOf(params)
  const carrier: Record<string, string> = {}
  if (typeof meta?.traceparent === 'string') {
    carrier.traceparent = meta.traceparent
    if (typeof meta.tracestate === 'string') carrier.tracestate = meta.tracestate
  } else if (headers !== undefined) {
    const traceparent = headers.get('traceparent')
    if (traceparent !== undefined) {
      carrier.traceparent = traceparent
      const tracestate = headers.get('tracestate')
      if (tracestate !== undefined) carrier.tracestate = tracestate
    }
  }
  if (carrier.traceparent === undefined) return api.ROOT_CONTEXT
  return api.propagation.extract(api.ROOT_CONTEXT, carrier)
}

function isSpanIds(value: unknown): value is CarriedSpan {
  return (
    Array.isArray(value) &&
    typeof value[0] === 'string' &&
    /^[0-9a-f]{32}$/.test(value[0]) &&
    typeof value[1] === 'string' &&
    /^[0-9a-f]{16}$/.test(value[1])
  )
}
