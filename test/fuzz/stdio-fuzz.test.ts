/**
 * @module stdio-fuzz.test
 * Property-based fuzzing of the stdio transport, with a fixed seed: lines from raw bytes to
 * almost-valid requests, in a 2025-11-25 session opened by `initialize` and in 2026-07-28
 * requests carrying their envelope. Every line the server writes must be a JSON-RPC 2.0 message
 * with no stack and no secret, after all of it the server still answers a plain request, and the
 * heap comes back to where it was once the run was warm.
 */
import { PassThrough } from 'node:stream'
import { serveStdio } from '@tessera/core/stdio'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { checkAnswer, fuzzServer, HEAP_GROWTH_LIMIT, heapAfterGc, mib } from './fuzz-server.ts'

const SEED = 20_261_201
const RUNS = 4_000
/** Lines before the heap baseline is taken. */
const WARM_UP = 1_000

const json = fc.jsonValue({ maxDepth: 4 })
const text = fc.oneof(
  fc.string({ maxLength: 30 }),
  fc.constantFrom('echo', 'confirm', 'fails', 'fuzz://doc', 'brief'),
)
const modernMeta = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} } },
}
const line = fc.oneof(
  {
    weight: 4,
    arbitrary: fc
      .record({
        id: fc.oneof(fc.integer({ min: 1 }), fc.string({ maxLength: 8 }), json),
        method: fc.constantFrom(
          'tools/call',
          'tools/list',
          'resources/read',
          'prompts/get',
          'ping',
          'server/discover',
          'no/such',
        ),
        name: text,
        uri: text,
        arguments: fc.oneof(fc.record({ text }, { requiredKeys: [] }), json),
        requestState: fc.oneof(fc.constant(undefined), text),
        modern: fc.boolean(),
      })
      .map((r) =>
        JSON.stringify({
          jsonrpc: '2.0',
          id: r.id,
          method: r.method,
          params: {
            name: r.name,
            uri: r.uri,
            arguments: r.arguments,
            ...(r.requestState === undefined ? {} : { requestState: r.requestState }),
            ...(r.modern ? { _meta: modernMeta } : {}),
          },
        }),
      ),
  },
  { weight: 2, arbitrary: json.map((v) => JSON.stringify(v)) },
  { weight: 1, arbitrary: fc.string({ maxLength: 120 }).map((s) => s.replace(/[\r\n]/g, ' ')) },
)

/** Sends `lines` then a ping with `marker` as its id; resolves once the ping is answered. */
async function sendAndWait(
  input: PassThrough,
  answered: Set<string>,
  lines: string[],
  marker: string,
): Promise<void> {
  for (const l of lines) input.write(`${l}\n`)
  input.write(`${JSON.stringify({ jsonrpc: '2.0', id: marker, method: 'ping' })}\n`)
  for (let i = 0; i < 200 && !answered.has(marker); i++) await new Promise((r) => setTimeout(r, 50))
  expect(answered.has(marker), `the ping "${marker}" was answered`).toBe(true)
}

describe('stdio fuzzing', () => {
  it(`holdsEveryInvariantFor${RUNS}GeneratedLinesAndStillAnswers`, async () => {
    const input = new PassThrough()
    const output = new PassThrough()
    const answered = new Set<string>()
    let linesBack = 0
    let pending = ''
    output.setEncoding('utf8')
    // Each line is checked as it comes and let go, so the test keeps nothing that would grow.
    output.on('data', (chunk: string) => {
      const parts = (pending + chunk).split('\n')
      pending = parts.pop() ?? ''
      for (const l of parts) {
        if (l.trim() === '') continue
        checkAnswer(200, l, l.slice(0, 300))
        linesBack++
        const marker = /^\{"jsonrpc":"2\.0","id":"(warm|last)","result"/.exec(l)
        if (marker) answered.add(marker[1]!)
      }
    })
    const served = serveStdio(fuzzServer(), { input, output })
    input.write(
      `${JSON.stringify({
        jsonrpc: '2.0',
        id: 'init',
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'f', version: '1' } },
      })}\n`,
    )
    const lines = fc.sample(line, { seed: SEED, numRuns: RUNS })
    const cold = heapAfterGc()
    await sendAndWait(input, answered, lines.slice(0, WARM_UP), 'warm')
    const warm = heapAfterGc()
    await sendAndWait(input, answered, lines.slice(WARM_UP), 'last')
    const end = heapAfterGc()
    input.end()
    await served
    process.stderr.write(
      `stdio fuzz: ${RUNS} lines (seed ${SEED}), ${linesBack} lines written back, heap ${mib(cold)} cold, ${mib(warm)} after ${WARM_UP}, ${mib(end)} at the end\n`,
    )
    expect(end - warm).toBeLessThan(HEAP_GROWTH_LIMIT)
  }, 60_000)
})
