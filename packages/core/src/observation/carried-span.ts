/**
 * @module carried-span
 * The span context a multi round-trip call carries in its sealed state, kept free of any
 * OpenTelemetry type so the state's shape never depends on the optional package.
 */

/** Trace id and span id of a call's first round, in lowercase hex. */
export type CarriedSpan = [traceId: string, spanId: string]
