/**
 * @module http-fuzz.test
 * Property-based fuzzing over real HTTP on 127.0.0.1, with a fixed seed so a failure replays:
 * bodies from raw bytes to almost-valid requests of every method (mutated envelopes, ids, params,
 * requestStates, answers), headers from none to mismatched mirrors and foreign versions, in both
 * eras (2026-07-28 requests, and requests inside a 2025-11-25 session). Every answer must hold:
 * no crash and no 5xx, a JSON-RPC 2.0 answer whose code and status the error table allows, no
 * stack and no secret; and the heap must come back to where it was once the run was warm.
 */
import { listen, type RunningServer } from '@tessera/core/http'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { checkAnswer, fuzzServer, HEAP_GROWTH_LIMIT, heapAfterGc, mib } from './fuzz-server.ts'

const SEED = 20_261_201
const RUNS = 12_000
/** Requests before the heap baseline is taken. */
const WARM_UP = 2_000
const METHODS = [
  'server/discover',
  'tools/list',
  'tools/call',
  'resources/list',
  'resources/read',
  'resources/templates/list',
  'prompts/list',
  'prompts/get',
  'completion/complete',
  'subscriptions/listen',
  'tasks/get',
  'tasks/cancel',
  'ping',
  'initialize',
  'logging/setLevel',
  'no/such',
]
const TOOLS = ['echo', 'mirrored', 'confirm', 'fails', 'nope']

let running: RunningServer
let session: string
beforeAll(async () => {
  running = await listen(fuzzServer(), { port: 0 })
  const init = await fetch(running.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: {
        protocolVersion: '2025-11-25',
        capabilities: { elicitation: {} },
        clientInfo: { name: 'f', version: '1' },
      },
    }),
  })
  session = init.headers.get('mcp-session-id') ?? ''
  await init.text()
})
afterAll(() => running.close())

const text = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.constantFrom('', 'echo', 'fuzz://doc', 'tss1.fuzz.AAAA', '\u0000', '💥'),
)
const json = fc.jsonValue({ maxDepth: 4 })
const id = fc.oneof(
  fc.integer(),
  fc.string({ maxLength: 20 }),
  fc.constant(null),
  json,
  fc.constant('i'.repeat(300)),
)

/** `_meta` as 2026-07-28 wants it, or broken in one way. */
const meta = fc.oneof(
  fc.record({
    'io.modelcontextprotocol/protocolVersion': fc.constantFrom('2026-07-28', '2025-11-25', '1999-01-01', ''),
    'io.modelcontextprotocol/clientCapabilities': fc.oneof(fc.constant({ elicitation: { form: {} } }), json),
  }),
  json,
)

const params = fc.record(
  {
    name: fc.oneof(fc.constantFrom(...TOOLS, 'brief'), text),
    uri: fc.oneof(fc.constant('fuzz://doc'), text),
    arguments: fc.oneof(fc.record({ text: text, region: text }, { requiredKeys: [] }), json),
    requestState: fc.oneof(text, fc.constant(undefined)),
    inputResponses: fc.oneof(fc.constant({ ok: { action: 'accept', content: { ok: true } } }), json),
    notifications: json,
    _meta: meta,
  },
  { requiredKeys: [] },
)

const envelope = fc.record(
  {
    jsonrpc: fc.oneof(fc.constant('2.0'), json),
    id,
    method: fc.oneof(fc.constantFrom(...METHODS), text),
    params: fc.oneof(params, json),
  },
  { requiredKeys: ['jsonrpc', 'method'] },
)

const body = fc.oneof(
  { weight: 6, arbitrary: envelope.map((e) => JSON.stringify(e)) },
  { weight: 2, arbitrary: json.map((v) => JSON.stringify(v)) },
  { weight: 1, arbitrary: fc.string({ maxLength: 200 }) },
  { weight: 1, arbitrary: fc.uint8Array({ maxLength: 200 }).map((b) => Buffer.from(b).toString('latin1')) },
)

const headers = fc.record(
  {
    'content-type': fc.constantFrom('application/json', 'text/plain', 'application/json; charset=utf-8', ''),
    accept: fc.constantFrom('application/json, text/event-stream', 'application/json', '*/*', ''),
    'mcp-protocol-version': fc.constantFrom('2026-07-28', '2025-11-25', 'x'),
    'mcp-method': fc.oneof(fc.constantFrom(...METHODS), fc.string({ maxLength: 10 })),
    'mcp-name': fc.oneof(fc.constantFrom(...TOOLS), fc.string({ maxLength: 10 })),
    'mcp-param-region': fc.string({ maxLength: 10 }),
    'mcp-session-id': fc.constantFrom('SESSION', 'no-such-session'),
    origin: fc.constantFrom('http://localhost:5173', 'http://evil.example', 'null'),
  },
  { requiredKeys: [] },
)

/** Header values fetch can carry: visible ASCII only (a fetch client refuses the rest itself). */
const sendable = (h: Record<string, string>) =>
  Object.fromEntries(
    Object.entries(h)
      .map(([k, v]) => [k, v === 'SESSION' ? session : v] as const)
      .filter(([, v]) => /^[\x20-\x7e]*$/.test(v)),
  )

/**
 * A request that would be served, then bent in at most two places: most inputs get past the
 * header checks and reach the methods, the state codec and the single-use guard.
 */
const nearlyValid = fc
  .record({
    method: fc.constantFrom(
      'tools/call',
      'tools/call',
      'resources/read',
      'prompts/get',
      'tools/list',
      'server/discover',
    ),
    tool: fc.constantFrom(...TOOLS),
    args: fc.record({ text: text, region: text }, { requiredKeys: [] }),
    state: fc.oneof(fc.constant(undefined), text, fc.constant(`tss1.fuzz.${'A'.repeat(80)}`)),
    answers: fc.oneof(
      fc.constant(undefined),
      fc.constant({ ok: { action: 'accept', content: { ok: true } } }),
      json,
    ),
    session: fc.boolean(),
    bend: fc.array(fc.constantFrom('drop-accept', 'drop-version', 'mirror', 'name', 'id', 'meta', 'params'), {
      maxLength: 2,
    }),
    noise: json,
  })
  .map((r): readonly [string, Record<string, string>] => {
    const name = r.method === 'prompts/get' ? 'brief' : r.tool
    const named = r.method === 'tools/call' || r.method === 'prompts/get'
    const p: Record<string, unknown> =
      r.method === 'resources/read' ? { uri: 'fuzz://doc' } : named ? { name, arguments: r.args } : {}
    if (r.state !== undefined) p.requestState = r.state
    if (r.answers !== undefined) p.inputResponses = r.answers
    if (!r.session) {
      p._meta = {
        'io.modelcontextprotocol/protocolVersion': '2026-07-28',
        'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} } },
      }
    }
    const h: Record<string, string> = {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': r.session ? '2025-11-25' : '2026-07-28',
    }
    if (r.session) h['mcp-session-id'] = 'SESSION'
    else {
      h['mcp-method'] = r.method
      if (named) h['mcp-name'] = name
      if (typeof r.args.region === 'string' && r.tool === 'mirrored') h['mcp-param-region'] = r.args.region
    }
    const e: Record<string, unknown> = { jsonrpc: '2.0', id: 1, method: r.method, params: p }
    for (const bend of r.bend) {
      if (bend === 'drop-accept') delete h.accept
      if (bend === 'drop-version') delete h['mcp-protocol-version']
      if (bend === 'mirror') h['mcp-param-region'] = 'bent'
      if (bend === 'name') h['mcp-name'] = 'bent'
      if (bend === 'id') e.id = r.noise
      if (bend === 'meta') p._meta = r.noise
      if (bend === 'params') e.params = r.noise
    }
    return [JSON.stringify(e), h]
  })

const request = fc.oneof(
  { weight: 3, arbitrary: nearlyValid.map(([b, h]) => [b, h, 'POST'] as const) },
  { weight: 2, arbitrary: fc.tuple(body, headers, fc.constantFrom('POST', 'POST', 'POST', 'GET', 'DELETE')) },
)

describe('HTTP fuzzing', () => {
  it(`holdsEveryInvariantFor${RUNS}GeneratedRequestsInBothEras`, async () => {
    const statuses: Record<number, number> = {}
    const cold = heapAfterGc()
    let warm = 0
    let runs = 0
    await fc.assert(
      fc.asyncProperty(request, async ([b, h, method]) => {
        const controller = new AbortController()
        const response = await fetch(running.url, {
          method,
          headers: sendable(h),
          body: method === 'POST' ? b : undefined,
          signal: controller.signal,
        })
        // A stream (listen, a session's GET) stays open: its first event is enough.
        const reply = response.headers.get('content-type')?.startsWith('text/event-stream')
          ? await firstEvent(response, controller)
          : await response.text()
        checkAnswer(response.status, reply, `${method} ${JSON.stringify(h)} ${b.slice(0, 300)}`)
        statuses[response.status] = (statuses[response.status] ?? 0) + 1
        if (++runs === WARM_UP) warm = heapAfterGc()
      }),
      { seed: SEED, numRuns: RUNS, endOnFailure: true },
    )
    const end = heapAfterGc()
    process.stderr.write(
      `http fuzz: ${RUNS} requests (seed ${SEED}), by status ${JSON.stringify(statuses)}, heap ${mib(cold)} cold, ${mib(warm)} after ${WARM_UP}, ${mib(end)} at the end\n`,
    )
    expect(end - warm).toBeLessThan(HEAP_GROWTH_LIMIT)
  }, 110_000)
})

/** The first event of a stream (or what came before a quiet half second), then the stream is let go. */
async function firstEvent(response: Response, controller: AbortController): Promise<string> {
  const reader = response.body!.getReader()
  const decoder = new TextDecoder()
  let seen = ''
  const quiet = setTimeout(() => controller.abort(), 500)
  try {
    while (!seen.includes('\n\n')) {
      const { done, value } = await reader.read()
      if (done) break
      seen += decoder.decode(value, { stream: true })
    }
  } catch {
    // Aborted after the quiet half second: what came is what is checked.
  } finally {
    clearTimeout(quiet)
    controller.abort()
  }
  // Only whole events: a partial one would not parse.
  return seen.slice(0, seen.lastIndexOf('\n\n') + 2).replace(/^:[^\n]*\n/gm, '')
}
