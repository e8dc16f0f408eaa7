/**
 * Closed-loop runner for benchmark "scenarios": a scenario is one logical operation written as an
 * async function (one request, or several: e.g. an MRTR round trip is two POSTs). N workers each
 * run the operation back to back for the duration; we report operations/s and latency percentiles
 * of successful operations. Unlike autocannon (one pre-built request replayed on raw sockets), the
 * client here is ordinary code (fetch, JSON parsing), so it costs more on the load-generator side:
 * compare scenario numbers with each other, and with an HTTP case only to see that client cost.
 */
import type { HttpCase } from './cases.ts'
import { Latencies } from './latency.ts'

/** One logical operation against the server under test. Throw (or reject) to count a failure. */
export type Operation = () => Promise<void>

export interface ScenarioTarget {
  /** Server name (raw, tessera, official...). */
  server: string
  /** Origin of the server under test, e.g. http://127.0.0.1:40123 */
  origin: string
  /** The HTTP cases of bench/requests/cases.json, for scenarios that reuse their bodies/headers. */
  cases: ReadonlyMap<string, HttpCase>
}

export interface Scenario {
  kind: 'scenario'
  name: string
  description: string
  /** Part of the default run (no --cases). */
  default: boolean
  /** Protocol era of the traffic. */
  era: string
  /** Builds the operation for one server (once, before the preflight run; may do setup). */
  prepare(target: ScenarioTarget): Operation | Promise<Operation>
}

export interface ClosedLoopOptions {
  concurrency: number
  durationMs: number
}

export interface ClosedLoopResult {
  /** Successful operations completed. */
  operations: number
  /** Failed operations (the operation threw). */
  errors: number
  firstErrors: string[]
  elapsedMs: number
  opsPerSec: number
  /** Latency of successful operations, milliseconds. */
  mean: number
  p50: number
  p99: number
  max: number
}

/** Runs `op` from `concurrency` loops, each starting its next operation when the last one ends. */
export async function runClosedLoop(
  op: Operation,
  { concurrency, durationMs }: ClosedLoopOptions,
): Promise<ClosedLoopResult> {
  const latencies = new Latencies()
  let errors = 0
  const firstErrors: string[] = []
  const start = performance.now()
  const end = start + durationMs

  const worker = async () => {
    while (performance.now() < end) {
      const t0 = performance.now()
      try {
        await op()
      } catch (err) {
        errors++
        if (firstErrors.length < 5) firstErrors.push(err instanceof Error ? err.message : String(err))
        continue
      }
      latencies.add(performance.now() - t0)
    }
  }
  await Promise.all(Array.from({ length: concurrency }, worker))
  const elapsedMs = performance.now() - start
  const { count, mean, p50, p99, max } = latencies.summary()
  return {
    operations: count,
    errors,
    firstErrors,
    elapsedMs,
    opsPerSec: (count * 1000) / elapsedMs,
    mean,
    p50,
    p99,
    max,
  }
}
