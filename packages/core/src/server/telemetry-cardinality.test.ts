/**
 * @module telemetry-cardinality.test
 * What a caller can make telemetry record: nothing it chooses becomes a metric label. Hundreds of
 * calls with made-up tool names, prompt names, resource URIs and methods, in both eras, leave a
 * few fixed series (a name that resolves keeps it, any other is `_OTHER`); their spans say
 * `_OTHER` too, and every value a span takes from a request is bounded in length.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { fetchClient, fetchFace } from '../../../../test/helpers/fetch-client.ts'
import { capturingLogger, type Json } from '../../../../test/helpers/mcp-http.ts'
import { type InstalledOtel, installOtel } from '../../../../test/helpers/otel.ts'
import { Telemetry } from '../observation/telemetry/telemetry.ts'
import { createServer } from './create-server.ts'
import type { McpServer } from './mcp-server.ts'
import { CORE_METHOD_NAMES } from './pipeline/method-table.ts'

const OTHER = '_OTHER'
const PROBES = 200

let otel: InstalledOtel
beforeEach(() => {
  otel = installOtel()
})
afterEach(() => otel.uninstall())

function server(): McpServer {
  const app = createServer({ name: 'cardinality', version: '1', logger: capturingLogger() })
  app.tool('greet', { description: 'greets' }, () => 'hi')
  app.prompt('brief', { description: 'a prompt' }, () => ({ messages: [] }))
  app.resource('ops://status', { name: 'status' }, (uri) => ({ contents: [{ uri, text: 'fine' }] }))
  app.resourceTemplate('ops://logs/{service}', { name: 'logs' }, (uri, { service }) =>
    service === 'api' ? { contents: [{ uri, text: 'log' }] } : undefined,
  )
  return app
}

/** Every distinct attribute set each instrument recorded, as sorted JSON. */
async function series(): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {}
  for (const metric of await otel.metrics()) {
    const sets = metric.dataPoints.map((point) => JSON.stringify(sortedKeys(point.attributes)))
    out[metric.descriptor.name] = [...new Set(sets)].sort()
  }
  return out
}

function sortedKeys(attributes: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(attributes).sort(([a], [b]) => a.localeCompare(b)))
}

/** The distinct values one attribute took across an instrument's points. */
async function labelValues(
  metric: string,
  key: string,
  where: Record<string, unknown> = {},
): Promise<string[]> {
  const found = (await otel.metrics()).find((m) => m.descriptor.name === metric)
  const values = new Set<string>()
  for (const point of found?.dataPoints ?? []) {
    const attributes = point.attributes as Record<string, unknown>
    if (!Object.entries(where).every(([k, v]) => attributes[k] === v)) continue
    values.add(String(attributes[key]))
  }
  return [...values].sort()
}

/** Everything the spans recorded, as one string to search. */
function spanText(): string {
  return JSON.stringify(otel.spans().map((s) => ({ name: s.name, attributes: s.attributes })))
}

describe('telemetry cardinality: the 2026-07-28 pipeline', () => {
  it('anUnknownToolNameIsOneLabelValue', async () => {
    const client = fetchClient(server())
    for (let i = 0; i < PROBES; i++) await client.callTool(`probe-tool-${i}`)
    await client.callTool('greet')
    expect(await labelValues('mcp.server.operation.duration', 'gen_ai.tool.name')).toEqual([OTHER, 'greet'])
    expect((await series())['mcp.server.operation.duration']).toEqual([
      JSON.stringify({ 'error.type': '-32602', 'gen_ai.tool.name': OTHER, 'mcp.method.name': 'tools/call' }),
      JSON.stringify({ 'gen_ai.tool.name': 'greet', 'mcp.method.name': 'tools/call' }),
    ])
    const unknown = otel.spans().filter((s) => s.attributes['gen_ai.tool.name'] === OTHER)
    expect(unknown).toHaveLength(PROBES)
    expect(new Set(unknown.map((s) => s.name))).toEqual(new Set(['tools/call']))
    expect(otel.spans().filter((s) => s.name === 'tools/call greet')).toHaveLength(1)
    expect(spanText()).not.toContain('probe-tool-')
  })

  it('anUnknownPromptNameIsOneLabelValue', async () => {
    const client = fetchClient(server())
    for (let i = 0; i < PROBES; i++) await client.request('prompts/get', { name: `probe-prompt-${i}` })
    await client.request('prompts/get', { name: 'brief' })
    expect(
      await labelValues('mcp.server.operation.duration', 'gen_ai.prompt.name', {
        'mcp.method.name': 'prompts/get',
      }),
    ).toEqual([OTHER, 'brief'])
    expect((await series())['mcp.server.operation.duration']).toHaveLength(2)
    expect(otel.spans().filter((s) => s.attributes['gen_ai.prompt.name'] === OTHER)).toHaveLength(PROBES)
    expect(spanText()).not.toContain('probe-prompt-')
  })

  it('anUnknownResourceUriIsNeverALabelAndIsOtherOnTheSpan', async () => {
    const client = fetchClient(server())
    for (let i = 0; i < PROBES; i++) await client.request('resources/read', { uri: `probe://resource/${i}` })
    await client.request('resources/read', { uri: 'ops://status' })
    await client.request('resources/read', { uri: 'ops://logs/api' })
    expect((await series())['mcp.server.operation.duration']).toEqual([
      JSON.stringify({ 'error.type': '-32602', 'mcp.method.name': 'resources/read' }),
      JSON.stringify({ 'mcp.method.name': 'resources/read' }),
    ])
    const uris = otel
      .spans()
      .filter((s) => s.kind === 1)
      .map((s) => s.attributes['mcp.resource.uri'])
    expect(new Set(uris)).toEqual(new Set([OTHER, 'ops://status', 'ops://logs/api']))
    expect(uris.filter((uri) => uri === OTHER)).toHaveLength(PROBES)
    expect(spanText()).not.toContain('probe://')
  })

  it('anUnknownMethodIsOneLabelValue', async () => {
    const client = fetchClient(server())
    for (let i = 0; i < PROBES; i++) await client.request(`probe/method-${i}`)
    await client.request('tools/list')
    const recorded = await series()
    expect(recorded['tessera.requests']).toEqual([
      JSON.stringify({ 'mcp.method.name': OTHER, outcome: 'error' }),
      JSON.stringify({ 'mcp.method.name': 'tools/list', outcome: 'ok' }),
    ])
    expect(recorded['mcp.server.operation.duration']).toEqual([
      JSON.stringify({ 'error.type': '-32601', 'mcp.method.name': OTHER }),
      JSON.stringify({ 'mcp.method.name': 'tools/list' }),
    ])
    expect(otel.spans().filter((s) => s.name === OTHER)).toHaveLength(PROBES)
    expect(spanText()).not.toContain('probe/method-')
  })

  it('keepsTheNameOfEveryMethodTheServerServes', async () => {
    const client = fetchClient(server())
    const served = [...CORE_METHOD_NAMES, 'tasks/get', 'tasks/update', 'tasks/cancel']
    for (const method of served) {
      if (method !== 'subscriptions/listen')
        await client.request(method, { name: 'greet', uri: 'ops://status' })
    }
    const expected = served.filter((m) => m !== 'subscriptions/listen')
    expect(await labelValues('tessera.requests', 'mcp.method.name')).toEqual(expected.sort())
  })

  it('boundsTheProtocolVersionOnTheSpanToTheSupportedOnes', async () => {
    const client = fetchClient(server())
    const made = `probe-version-${'v'.repeat(5000)}`
    await client.request('tools/list', {
      _meta: { 'io.modelcontextprotocol/protocolVersion': made },
    })
    await client.request('tools/list')
    const versions = otel
      .spans()
      .filter((s) => s.kind === 1)
      .map((s) => s.attributes['mcp.protocol.version'])
    expect(versions.sort()).toEqual(['2026-07-28', OTHER])
    expect(spanText()).not.toContain('probe-version-')
  })
})

describe('telemetry cardinality: a 2025-11-25 session', () => {
  it('aSessionsMadeUpToolsPromptsAndMethodsAreOneLabelValueEach', async () => {
    const handler = fetchFace(server())
    const post = async (body: Json, session?: string) => {
      const response = await handler(
        new Request('http://127.0.0.1/mcp', {
          method: 'POST',
          headers: {
            accept: 'application/json, text/event-stream',
            'content-type': 'application/json',
            ...(session ? { 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' } : {}),
          },
          body: JSON.stringify(body),
        }),
      )
      await response.text()
      return response.headers.get('mcp-session-id') ?? undefined
    }
    const session = await post({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '1' } },
    })
    let id = 1
    for (let i = 0; i < 50; i++) {
      await post(
        { jsonrpc: '2.0', id: id++, method: 'tools/call', params: { name: `probe-t-${i}` } },
        session,
      )
      await post(
        { jsonrpc: '2.0', id: id++, method: 'prompts/get', params: { name: `probe-p-${i}` } },
        session,
      )
      await post({ jsonrpc: '2.0', id: id++, method: `probe/m-${i}`, params: {} }, session)
    }
    await post({ jsonrpc: '2.0', id: id++, method: 'tools/call', params: { name: 'greet' } }, session)
    expect(await labelValues('tessera.requests', 'mcp.method.name')).toEqual(
      [OTHER, 'initialize', 'prompts/get', 'tools/call'].sort(),
    )
    expect(
      await labelValues('mcp.server.operation.duration', 'gen_ai.tool.name', {
        'mcp.method.name': 'tools/call',
      }),
    ).toEqual([OTHER, 'greet'])
    expect(
      await labelValues('mcp.server.operation.duration', 'gen_ai.prompt.name', {
        'mcp.method.name': 'prompts/get',
      }),
    ).toEqual([OTHER])
    expect((await series())['mcp.server.operation.duration']?.length).toBeLessThanOrEqual(5)
    expect(spanText()).not.toContain('probe-')
  })
})

describe('telemetry cardinality: the fixed label sets', () => {
  it('recordsAnythingOutsideAFixedSetAsOther', async () => {
    const telemetry = new Telemetry('1', true, {
      methods: new Set(['tools/call']),
      tool: () => false,
      prompt: () => false,
      resource: () => false,
    })
    // Values outside the types too: what reaches telemetry is bounded by its sets, not by the types.
    telemetry.on({ step: 'state-refused', reason: 'made-up-reason', method: 'tools/call' })
    telemetry.on({ step: 'single-use', nonce: 'n', what: 'w', status: 'made-up-outcome' as 'executed' })
    telemetry.on({
      step: 'store-call',
      store: 'made-up-store' as 'replay',
      operation: 'made-up-operation',
      ms: 1,
      ok: false,
    })
    const watch = telemetry.request({ method: 'tools/call', requestId: 1, params: {}, headers: undefined })
    watch?.failed(-1, 'a code outside the error table')
    watch?.end()
    const recorded = await series()
    expect(recorded['tessera.request_state.refused']).toEqual([JSON.stringify({ reason: OTHER })])
    expect(recorded['tessera.single_use.outcomes']).toEqual([JSON.stringify({ outcome: OTHER })])
    expect(recorded['tessera.store.errors']).toEqual([
      JSON.stringify({ 'tessera.store': OTHER, 'tessera.store.operation': OTHER }),
    ])
    expect(await labelValues('mcp.server.operation.duration', 'error.type')).toEqual([OTHER])
    expect(JSON.stringify(recorded)).not.toContain('made-up')
  })
})
