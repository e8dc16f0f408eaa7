/**
 * @module stdio-fuzz.test
 * Property-based fuzzing of the stdio transport, with a fixed seed: lines from raw bytes to
 * almost-valid requests, in a 2025-11-25 session opened by `initialize` and in 2026-07-28
 * requests carrying their envelope. Every line the server writes must be a JSON-RPC 2.0 message
 * with no stack and no secret, and after all of it the server still answers a plain request.
 */
import { PassThrough } from 'node:stream'
import { serveStdio } from '@tessera/core/stdio'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { checkAnswer, fuzzServer } from './fuzz-server.ts'

const SEED = 20_261_201
const RUNS = 4_000

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

describe('stdio fuzzing', () => {
  it(`holdsEveryInvariantFor${RUNS}GeneratedLinesAndStillAnswers`, async () => {
    const input = new PassThrough()
    const output = new PassThrough()
    let written = ''
    output.setEncoding('utf8')
    output.on('data', (chunk: string) => {
      written += chunk
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
    for (const l of lines) input.write(`${l}\n`)
    input.write(`${JSON.stringify({ jsonrpc: '2.0', id: 'last', method: 'ping' })}\n`)
    for (let i = 0; i < 200 && !written.includes('"id":"last"'); i++)
      await new Promise((r) => setTimeout(r, 50))
    input.end()
    await served
    const out = written.split('\n').filter((l) => l.trim() !== '')
    for (const l of out) checkAnswer(200, l, l.slice(0, 300))
    expect(out.some((l) => l.includes('"id":"last"') && l.includes('"result"'))).toBe(true)
    process.stderr.write(`stdio fuzz: ${RUNS} lines (seed ${SEED}), ${out.length} lines written back\n`)
  }, 60_000)
})
