/**
 * @module telemetry.test
 * Traces and metrics with the OpenTelemetry SDK's in-memory exporters, through the fetch face:
 * span names and attributes per method, the steps as child spans, a three-round call as three
 * spans linked to the first, the caller's trace context from `_meta` or else the header, a
 * refused state's reason on the span and in the metrics but not in the body, metric values after
 * a scripted scenario, and no argument value, token or state anywhere in what was recorded.
 */
import { createHash } from 'node:crypto'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { fetchClient, fetchFace } from '../../../../test/helpers/fetch-client.ts'
import {
  bearer,
  bearerJsonAuth,
  capturingLogger,
  errorOf,
  type Json,
  resultOf,
} from '../../../../test/helpers/mcp-http.ts'
import { type InstalledOtel, installOtel } from '../../../../test/helpers/otel.ts'
import { generateStateKey } from '../security/request-state/key-ring.ts'
import { createServer } from './create-server.ts'
import type { McpServer } from './mcp-server.ts'
import { elicitForm } from './mrtr/input-requests.ts'

let otel: InstalledOtel
beforeAll(() => {
  otel = installOtel()
})
afterAll(() => otel.uninstall())
beforeEach(() => otel.reset())

const ask = (message: string) => elicitForm({ message, schema: z.object({ ok: z.boolean() }) })
const yes = { action: 'accept', content: { ok: true } }

function server(): McpServer {
  const app = createServer({
    name: 'otel',
    version: '1.2.3',
    logger: capturingLogger(),
    requestState: { keys: [generateStateKey('otel')] },
  })
  app.tool(
    'greet',
    { description: 'greets', input: z.object({ name: z.string() }) },
    ({ name }) => `Hi ${name}`,
  )
  app.tool('broken', { description: 'tool error' }, () => ({
    content: [{ type: 'text', text: 'no' }],
    isError: true,
  }))
  app.tool('twice', { description: 'two questions', singleUse: true }, async (_a, ctx) => {
    await ctx.ask('first', ask('First?'))
    await ctx.ask('second', ask('Second?'))
    return 'both answered'
  })
  app.prompt('brief', { description: 'a prompt' }, () => ({ messages: [] }))
  app.resource('ops://status', { name: 'status' }, (uri) => ({ contents: [{ uri, text: 'fine' }] }))
  return app
}

const spanNamed = (name: string) => otel.spans().filter((s) => s.name === name)

describe('telemetry: spans', () => {
  it('namesEachRequestSpanAfterItsMethodAndTargetWithTheConventionsAttributes', async () => {
    const client = fetchClient(server())
    await client.callTool('greet', { name: 'Ada' }, { id: 7 })
    await client.request('prompts/get', { name: 'brief' })
    await client.request('resources/read', { uri: 'ops://status' })
    const [call] = spanNamed('tools/call greet')
    expect(call?.kind).toBe(1)
    expect(call?.attributes).toMatchObject({
      'mcp.method.name': 'tools/call',
      'gen_ai.tool.name': 'greet',
      'gen_ai.operation.name': 'execute_tool',
      'jsonrpc.request.id': '7',
      'mcp.protocol.version': '2026-07-28',
      'network.transport': 'tcp',
    })
    expect(spanNamed('prompts/get brief')[0]?.attributes).toMatchObject({ 'gen_ai.prompt.name': 'brief' })
    expect(spanNamed('resources/read')[0]?.attributes).toMatchObject({ 'mcp.resource.uri': 'ops://status' })
  })

  it('recordsTheStepsAsChildrenOfTheRequestSpan', async () => {
    await fetchClient(server()).callTool('greet', { name: 'Ada' })
    const [call] = spanNamed('tools/call greet')
    const children = otel.spans().filter((s) => s.parentSpanContext?.spanId === call?.spanContext().spanId)
    expect(children.map((s) => s.name).sort()).toEqual(['handler', 'validate arguments'])
  })

  it('marksAJsonRpcErrorAndAToolErrorWithTheirErrorType', async () => {
    const client = fetchClient(server())
    await client.callTool('missing')
    await client.callTool('broken')
    // An unregistered tool names no span: the span is the method's, the tool `_OTHER`.
    const [missing] = spanNamed('tools/call')
    expect(missing?.attributes).toMatchObject({
      'gen_ai.tool.name': '_OTHER',
      'error.type': '-32602',
      'rpc.response.status_code': '-32602',
    })
    expect(missing?.status.code).toBe(2)
    expect(spanNamed('tools/call broken')[0]?.attributes['error.type']).toBe('tool_error')
  })

  it('linksEveryLaterRoundOfAThreeRoundCallToTheFirst', async () => {
    const client = fetchClient(server())
    const first = resultOf(await client.callTool('twice'))
    const second = resultOf(
      await client.callTool(
        'twice',
        {},
        { extra: { requestState: first.requestState, inputResponses: { first: yes } } },
      ),
    )
    const third = resultOf(
      await client.callTool(
        'twice',
        {},
        { extra: { requestState: second.requestState, inputResponses: { second: yes } } },
      ),
    )
    expect(third.content).toEqual([{ type: 'text', text: 'both answered' }])
    const rounds = spanNamed('tools/call twice')
    expect(rounds).toHaveLength(3)
    const origin = rounds[0]!.spanContext()
    expect(rounds[0]!.links).toEqual([])
    for (const [index, span] of rounds.slice(1).entries()) {
      expect(span.attributes['tessera.mrtr.round']).toBe(index + 2)
      expect(span.links.map((l) => [l.context.traceId, l.context.spanId])).toEqual([
        [origin.traceId, origin.spanId],
      ])
    }
    expect(otel.spans().some((s) => s.name === 'requestState seal')).toBe(true)
    expect(otel.spans().some((s) => s.name === 'requestState open')).toBe(true)
    expect(otel.spans().some((s) => s.name === 'single-use guard')).toBe(true)
  })

  it('continuesTheTraceOfMetaTraceparentAndElseOfTheHeader', async () => {
    const client = fetchClient(server())
    const fromMeta = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01'
    const fromHeader = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01'
    await client.callTool(
      'greet',
      { name: 'meta' },
      { meta: { traceparent: fromMeta }, headers: { traceparent: fromHeader } },
    )
    await client.callTool('greet', { name: 'header' }, { headers: { traceparent: fromHeader } })
    const [meta, header] = spanNamed('tools/call greet')
    expect([meta?.spanContext().traceId, meta?.parentSpanContext?.spanId]).toEqual([
      '0af7651916cd43dd8448eb211c80319c',
      'b7ad6b7169203331',
    ])
    expect([header?.spanContext().traceId, header?.parentSpanContext?.spanId]).toEqual([
      '4bf92f3577b34da6a3ce929d0e0e4736',
      '00f067aa0ba902b7',
    ])
  })

  it('putsARefusalReasonOnTheSpanAndInTheMetricsButNotInTheBody', async () => {
    const client = fetchClient(server())
    const first = resultOf(await client.callTool('twice'))
    const state = String(first.requestState)
    const tampered = `${state.slice(0, -4)}${state.slice(-4) === 'AAAA' ? 'BBBB' : 'AAAA'}`
    const reply = await client.callTool(
      'twice',
      {},
      { extra: { requestState: tampered, inputResponses: { first: yes } } },
    )
    expect(errorOf(reply).message).toBe('Invalid params: the requestState is invalid or expired.')
    const refused = spanNamed('tools/call twice').at(-1)!
    const reason = refused.attributes['tessera.request_state.refusal']
    expect(typeof reason).toBe('string')
    expect(reply.raw).not.toContain(String(reason))
    expect(await otel.total('tessera.request_state.refused', { reason })).toBeGreaterThanOrEqual(1)
  })
})

describe('telemetry: turned off', () => {
  it('recordsNothingForAServerMadeWithTelemetryFalse', async () => {
    const app = createServer({ name: 'quiet', version: '1', logger: capturingLogger(), telemetry: false })
    app.tool('hush', { description: 'quiet' }, () => 'shh')
    const before = await otel.total('tessera.requests', { 'mcp.method.name': 'tools/call', outcome: 'ok' })
    await fetchClient(app).callTool('hush')
    expect(otel.spans().filter((s) => s.name.includes('hush'))).toEqual([])
    expect(await otel.total('tessera.requests', { 'mcp.method.name': 'tools/call', outcome: 'ok' })).toBe(
      before,
    )
  })
})

describe('telemetry: the request logger', () => {
  it('givesEveryLineOfCtxLoggerTheMethodTargetAndTraceIds', async () => {
    const logger = capturingLogger()
    const app = createServer({ name: 'otel-log', version: '1', logger })
    app.tool('noted', { description: 'logs' }, (_a, ctx) => {
      ctx.logger.info({ event: 'noted' }, 'a line')
      return 'ok'
    })
    await fetchClient(app).callTool('noted')
    const line = logger.entries.find((entry) => entry.obj.event === 'noted')
    const span = spanNamed('tools/call noted')[0]!
    expect(line?.obj).toMatchObject({
      method: 'tools/call',
      target: 'noted',
      trace_id: span.spanContext().traceId,
    })
    expect(String(line?.obj.span_id)).toMatch(/^[0-9a-f]{16}$/)
  })
})

describe('telemetry: metrics and what is never recorded', () => {
  it('countsRequestsStatesAndSingleUseOutcomesAfterAScriptedScenarioAndRecordsNoSecret', async () => {
    const app = server()
    const client = fetchClient(app, { auth: bearerJsonAuth })
    const auth = bearer({ subject: 'SECRET-SUBJECT-9' })
    const before = {
      ok: await otel.total('tessera.requests', { 'mcp.method.name': 'tools/call', outcome: 'ok' }),
      error: await otel.total('tessera.requests', { 'mcp.method.name': 'tools/call', outcome: 'error' }),
      asked: await otel.total('tessera.requests', {
        'mcp.method.name': 'tools/call',
        outcome: 'input_required',
      }),
      executed: await otel.total('tessera.single_use.outcomes', { outcome: 'executed' }),
      replayed: await otel.total('tessera.single_use.outcomes', { outcome: 'replayed' }),
      opened: await otel.total('tessera.request_state.opened'),
      durations: await otel.total('mcp.server.operation.duration', { 'mcp.method.name': 'tools/call' }),
    }
    await client.callTool('greet', { name: 'SECRET-ARGUMENT-1' }, { headers: auth })
    await client.callTool('greet', { name: 'SECRET-ARGUMENT-2' }, { headers: auth })
    await client.callTool('missing', {}, { headers: auth })
    const first = resultOf(await client.callTool('twice', {}, { headers: auth }))
    const answer = { requestState: first.requestState, inputResponses: { first: yes } }
    const second = resultOf(await client.callTool('twice', {}, { headers: auth, extra: answer }))
    await client.callTool('twice', {}, { headers: auth, extra: answer })
    expect(await otel.total('tessera.requests', { 'mcp.method.name': 'tools/call', outcome: 'ok' })).toBe(
      before.ok + 2,
    )
    expect(await otel.total('tessera.requests', { 'mcp.method.name': 'tools/call', outcome: 'error' })).toBe(
      before.error + 1,
    )
    expect(
      await otel.total('tessera.requests', { 'mcp.method.name': 'tools/call', outcome: 'input_required' }),
    ).toBe(before.asked + 3)
    expect(await otel.total('tessera.single_use.outcomes', { outcome: 'executed' })).toBe(before.executed + 1)
    expect(await otel.total('tessera.single_use.outcomes', { outcome: 'replayed' })).toBe(before.replayed + 1)
    expect(await otel.total('tessera.request_state.opened')).toBe(before.opened + 2)
    expect(
      await otel.total('tessera.store.duration', {
        'tessera.store': 'replay',
        'tessera.store.operation': 'claim',
      }),
    ).toBeGreaterThanOrEqual(2)
    expect(await otel.total('mcp.server.operation.duration', { 'mcp.method.name': 'tools/call' })).toBe(
      before.durations + 6,
    )
    const recorded = JSON.stringify([
      otel.spans().map((s) => ({ name: s.name, attributes: s.attributes, links: s.links, events: s.events })),
      await otel.metrics(),
    ])
    const state = String(second.requestState)
    for (const secret of [
      'SECRET-ARGUMENT-1',
      'SECRET-ARGUMENT-2',
      'SECRET-SUBJECT-9',
      state,
      String(first.requestState),
    ]) {
      expect(recorded).not.toContain(secret)
    }
    expect(recorded).not.toContain(createHash('sha256').update(state).digest('hex'))
  })

  it('countsTheRequestsARateLimitRefusedByScopeMethodAndToolAndTimesEveryTake', async () => {
    const app = createServer({
      name: 'otel-limits',
      version: '1',
      logger: capturingLogger(),
      rateLimits: { methods: { 'prompts/get': { calls: 1, perMs: 60_000 } } },
    })
    app.tool('greet', { description: 'greets', rateLimit: { calls: 1, perMs: 60_000 } }, () => 'hi')
    app.prompt('brief', { description: 'a prompt' }, () => ({ messages: [] }))
    const client = fetchClient(app)
    const refusals = (match: Record<string, unknown>) => otel.total('tessera.rate_limit.refusals', match)
    const takes = () => otel.total('tessera.store.duration', { 'tessera.store': 'rateLimits' })
    const before = {
      tool: await refusals({ 'tessera.rate_limit.scope': 'tool', 'gen_ai.tool.name': 'greet' }),
      method: await refusals({ 'tessera.rate_limit.scope': 'method', 'mcp.method.name': 'prompts/get' }),
      takes: await takes(),
    }
    for (let i = 0; i < 2; i++) {
      await client.callTool('greet')
      await client.request('prompts/get', { name: 'brief' })
    }
    expect(await refusals({ 'tessera.rate_limit.scope': 'tool', 'gen_ai.tool.name': 'greet' })).toBe(
      before.tool + 1,
    )
    expect(await refusals({ 'tessera.rate_limit.scope': 'method', 'mcp.method.name': 'prompts/get' })).toBe(
      before.method + 1,
    )
    expect(await takes()).toBe(before.takes + 4)
    expect(spanNamed('tools/call greet').at(-1)?.attributes['tessera.rate_limit.scope']).toBe('tool')
  })

  it('namesTheSessionOfAHandshakeEraRequest', async () => {
    const app = server()
    const handler = fetchFace(app)
    const post = (body: Json, session?: string) =>
      handler(
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
    const init = await post({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '1' } },
    })
    const session = String(init.headers.get('mcp-session-id'))
    await init.text()
    await (
      await post(
        { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'greet', arguments: { name: 'x' } } },
        session,
      )
    ).text()
    expect(spanNamed('tools/call greet')[0]?.attributes['mcp.session.id']).toBe(session)
  })
})
