/**
 * @module handshake-client-requests.test
 * Handlers written once, MRTR style, serving a 2025-11-25 client through real server-to-client
 * requests over HTTP: one ask, several asked at once (`ctx.askAll`), a form typed by a zod schema,
 * sequential asks, URL elicitation, sampling and roots, a JSON-RPC error reply read as a cancel,
 * the request timeout, `notifications/cancelled`, and the bound on rounds.
 */
import { createMessage, createServer, elicitForm, elicitUrl, listRoots, type McpServer } from '@tessera/core'
import { listen, type RunningServer } from '@tessera/core/http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import {
  acceptWith,
  EventReader,
  errorOf,
  gate,
  HandshakeClient,
  type Json,
  readAnswer,
  resultOf,
  sleep,
  textOf,
} from '../helpers/handshake-client.ts'
import { capturingLogger } from '../helpers/mcp-http.ts'

const nameForm = elicitForm({
  message: 'Your name?',
  requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
})

/** What the tools observed, for assertions about what ran. */
const seen = {
  aborted: 0,
  started: gate(),
  abortedGate: gate(),
  forever: 0,
}

function addTools(app: McpServer): McpServer {
  app.tool('await-style', { description: 'Asks with await' }, async (_args, ctx) => {
    const answer = await ctx.ask('name', nameForm)
    return answer.action === 'accept' ? `hello ${answer.content.name}` : `refused: ${answer.action}`
  })
  app.tool('typed-form', { description: 'Asks with a zod form' }, async (_args, ctx) => {
    const answer = await ctx.ask(
      'name',
      elicitForm({ message: 'Your name?', schema: z.object({ name: z.string(), age: z.coerce.number() }) }),
    )
    return answer.action === 'accept'
      ? `hi ${answer.content.name}, ${answer.content.age + 1} next year`
      : `refused: ${answer.action}`
  })
  app.tool('two-step', { description: 'Two sequential asks' }, async (_args, ctx) => {
    const colour = await ctx.ask(
      'colour',
      elicitForm({ message: 'Colour?', schema: z.object({ colour: z.string() }) }),
    )
    if (colour.action !== 'accept') return 'no colour'
    const size = await ctx.ask(
      'size',
      elicitForm({
        message: `Size of the ${colour.content.colour} one?`,
        schema: z.object({ size: z.number() }),
      }),
    )
    if (size.action !== 'accept') return 'no size'
    return {
      content: [{ type: 'text', text: 'ordered' }],
      structuredContent: { ...colour.content, ...size.content },
    }
  })
  app.tool('url-style', { description: 'URL elicitation' }, async (_args, ctx) => {
    const answer = await ctx.ask(
      'sign-in',
      elicitUrl({ message: 'Sign in', url: 'https://auth.example/start' }),
    )
    return `url: ${answer.action}`
  })
  app.tool('sample-and-roots', { description: 'Sampling and roots' }, async (_args, ctx) => {
    const roots = await ctx.ask('roots', listRoots())
    const sampled = await ctx.ask(
      'greeting',
      createMessage({ messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }], maxTokens: 10 }),
    )
    return `${roots.roots.map((r) => r.uri).join(',')} / ${sampled.model}`
  })
  app.tool('roots-only', { description: 'Asks for roots' }, async (_args, ctx) => {
    const roots = await ctx.ask('roots', listRoots())
    return `roots: ${roots.roots.length}`
  })
  app.tool('wait-abort', { description: 'Waits for its signal' }, async (_args, ctx) => {
    seen.started.open()
    await new Promise<void>((resolve) => {
      if (ctx.signal.aborted) return resolve()
      ctx.signal.addEventListener('abort', () => resolve(), { once: true })
    })
    seen.aborted++
    seen.abortedGate.open()
    return 'aborted'
  })
  app.tool('forever', { description: 'Asks forever' }, async (_args, ctx) => {
    seen.forever++
    for (let i = 0; ; i++) {
      await ctx.ask(
        `question-${i}`,
        elicitForm({ message: `Question ${i}?`, requestedSchema: { type: 'object', properties: {} } }),
      )
    }
  })
  return app
}

const logger = capturingLogger()
let main: RunningServer
let strict: RunningServer

beforeAll(async () => {
  main = await listen(addTools(createServer({ name: 'it-asks', version: '1.0.0', logger })), { port: 0 })
  strict = await listen(
    addTools(
      createServer({
        name: 'it-strict',
        version: '1.0.0',
        maxRounds: 3,
        logger,
        handshake: { requestTimeoutMs: 300 },
      }),
    ),
    { port: 0 },
  )
})

afterAll(async () => {
  await Promise.all([main?.close(), strict?.close()])
})

describe('MRTR handlers through real elicitation/create requests', () => {
  it('runs an await-style tool: one elicitation/create on the POST stream, then the result', async () => {
    const client = await HandshakeClient.connect(main.url)
    const reply = await client.callTool('await-style', {}, { onRequest: acceptWith({ name: 'Ada' }) })
    expect(reply.status).toBe(200)
    expect(reply.contentType).toMatch(/^text\/event-stream/)
    expect(textOf(resultOf(reply))).toBe('hello Ada')
    expect(reply.requests).toHaveLength(1)
    const request = reply.requests[0]!
    expect(request).toMatchObject({
      jsonrpc: '2.0',
      method: 'elicitation/create',
      params: nameForm.params,
    })
    expect(['string', 'number']).toContain(typeof request.id)
    // Every event of the POST stream has an id of this session; the first one is the empty priming event.
    expect(reply.events[0]?.message).toBeUndefined()
    for (const event of reply.events) expect(event.id?.startsWith(`${client.sessionId}.`)).toBe(true)
    expect(resultOf(reply)).not.toHaveProperty('resultType')
  })

  it('typesTheContentOfAFormBuiltFromAZodSchema', async () => {
    const client = await HandshakeClient.connect(main.url)
    const reply = await client.callTool(
      'typed-form',
      {},
      { onRequest: acceptWith({ name: 'Grace', age: '41' }) },
    )
    expect(textOf(resultOf(reply))).toBe('hi Grace, 42 next year')
    expect(reply.requests.map((r) => r.method)).toEqual(['elicitation/create'])
  })

  it('acknowledges the POSTed answer with 202', async () => {
    const client = await HandshakeClient.connect(main.url)
    const response = await client.open(
      'tools/call',
      { name: 'await-style', arguments: {} },
      { id: 'call-202' },
    )
    const reader = new EventReader(response)
    const request = await reader.nextMessage()
    expect(request?.method).toBe('elicitation/create')
    const ack = await client.answer(request!.id as string, {
      result: { action: 'accept', content: { name: 'Lin' } },
    })
    expect(ack.status).toBe(202)
    expect(await ack.text()).toBe('')
    expect(await reader.nextMessage()).toMatchObject({
      id: 'call-202',
      result: { content: [{ text: 'hello Lin' }] },
    })
    expect(await reader.next()).toBeUndefined()
  })

  it('runs a two-step tool: two sequential requests, the second built from the first answer', async () => {
    const client = await HandshakeClient.connect(main.url)
    const reply = await client.callTool(
      'two-step',
      {},
      {
        onRequest: (request) => {
          const message = (request.params as Json).message as string
          if (message === 'Colour?') return { result: { action: 'accept', content: { colour: 'red' } } }
          return { result: { action: 'accept', content: { size: 3 } } }
        },
      },
    )
    expect(resultOf(reply).structuredContent).toEqual({ colour: 'red', size: 3 })
    expect(reply.requests.map((r) => (r.params as Json).message)).toEqual(['Colour?', 'Size of the red one?'])
    expect(new Set(reply.requests.map((r) => r.id)).size).toBe(2)
  })

  it('passes a decline to the handler', async () => {
    const client = await HandshakeClient.connect(main.url)
    const reply = await client.callTool(
      'two-step',
      {},
      {
        onRequest: (request) =>
          (request.params as Json).message === 'Colour?'
            ? { result: { action: 'accept', content: { colour: 'blue' } } }
            : { result: { action: 'decline' } },
      },
    )
    expect(textOf(resultOf(reply))).toBe('no size')
  })

  it('mints an elicitationId for a URL elicitation', async () => {
    const client = await HandshakeClient.connect(main.url)
    const reply = await client.callTool(
      'url-style',
      {},
      { onRequest: () => ({ result: { action: 'accept' } }) },
    )
    expect(textOf(resultOf(reply))).toBe('url: accept')
    const params = reply.requests[0]?.params as Json
    expect(params).toMatchObject({ mode: 'url', message: 'Sign in', url: 'https://auth.example/start' })
    expect(params.elicitationId).toEqual(expect.any(String))
  })

  it('sends roots/list and sampling/createMessage as real requests too', async () => {
    const client = await HandshakeClient.connect(main.url)
    const reply = await client.callTool('sample-and-roots', {}, { onRequest: acceptWith({}) })
    expect(textOf(resultOf(reply))).toBe('file:///workspace / test-model')
    expect(reply.requests.map((r) => r.method)).toEqual(['roots/list', 'sampling/createMessage'])
  })

  it('refuses to ask a client that did not declare elicitation', async () => {
    const client = await HandshakeClient.connect(main.url, {})
    const bare = new HandshakeClient(main.url, { capabilities: {} })
    await bare.initialize()
    const reply = await bare.callTool('await-style')
    expect(reply.requests).toEqual([])
    expect(errorOf(reply).code).toBe(-32602)
    expect(client.sessionId).not.toBe(bare.sessionId)
  })

  it('reads a JSON-RPC error reply to an elicitation as a cancel', async () => {
    const client = await HandshakeClient.connect(main.url)
    const reply = await client.callTool(
      'await-style',
      {},
      {
        onRequest: () => ({ error: { code: -32603, message: 'the user closed the dialog' } }),
      },
    )
    expect(textOf(resultOf(reply))).toBe('refused: cancel')
  })
})

describe('bounds: timeout, cancellation, rounds', () => {
  it('ends a call whose roots/list is never answered with an error after requestTimeoutMs', async () => {
    const client = await HandshakeClient.connect(strict.url)
    const t0 = performance.now()
    const reply = await client.callTool('roots-only', {}, { onRequest: () => 'ignore' })
    const elapsed = performance.now() - t0
    expect(reply.requests.map((r) => r.method)).toEqual(['roots/list'])
    expect(errorOf(reply).code).toBe(-32603)
    expect(elapsed).toBeGreaterThanOrEqual(280)
    expect(elapsed).toBeLessThan(2_000)
  })

  it('ends a call whose elicitation is never answered after requestTimeoutMs instead of hanging', async () => {
    const client = await HandshakeClient.connect(strict.url)
    const t0 = performance.now()
    const reply = await client.callTool('await-style', {}, { onRequest: () => 'ignore' })
    expect(performance.now() - t0).toBeLessThan(2_000)
    expect(reply.body).toBeDefined()
  })

  it('ends a call whose elicitation is never answered with an error, not a user cancel', async () => {
    const client = await HandshakeClient.connect(strict.url)
    const reply = await client.callTool('await-style', {}, { onRequest: () => 'ignore' })
    const isError =
      reply.body?.error !== undefined || (reply.body?.result as Json | undefined)?.isError === true
    expect(isError).toBe(true)
  })

  it('aborts the handler on notifications/cancelled and writes no response for the call', async () => {
    seen.started = gate()
    seen.abortedGate = gate()
    const before = seen.aborted
    const client = await HandshakeClient.connect(main.url)
    const pending = client.open('tools/call', { name: 'wait-abort', arguments: {} }, { id: 'to-cancel' })
    await seen.started.promise
    const ack = await client.notify('notifications/cancelled', {
      requestId: 'to-cancel',
      reason: 'user gave up',
    })
    expect(ack.status).toBe(202)
    await seen.abortedGate.promise
    expect(seen.aborted).toBe(before + 1)
    const reply = await readAnswer(await pending, { expectId: 'to-cancel' })
    expect(reply.body).toBeUndefined()
    expect(reply.messages.filter((m) => m.id === 'to-cancel')).toEqual([])
    expect(reply.status).toBe(202)
  })

  it('ignores notifications/cancelled for another id or another session', async () => {
    seen.started = gate()
    seen.abortedGate = gate()
    const client = await HandshakeClient.connect(main.url)
    const other = await HandshakeClient.connect(main.url)
    const pending = client.open('tools/call', { name: 'wait-abort', arguments: {} }, { id: 'keep-running' })
    await seen.started.promise
    await client.notify('notifications/cancelled', { requestId: 'something-else' })
    await other.notify('notifications/cancelled', { requestId: 'keep-running' })
    const raced = await Promise.race([
      seen.abortedGate.promise.then(() => 'aborted'),
      sleep(200).then(() => 'running'),
    ])
    expect(raced).toBe('running')
    await client.notify('notifications/cancelled', { requestId: 'keep-running' })
    await seen.abortedGate.promise
    await (await pending).text()
  })

  it('does not cancel request 7 on notifications/cancelled for requestId "7"', async () => {
    seen.started = gate()
    seen.abortedGate = gate()
    const client = await HandshakeClient.connect(main.url)
    const pending = client.open('tools/call', { name: 'wait-abort', arguments: {} }, { id: 7 })
    await seen.started.promise
    await client.notify('notifications/cancelled', { requestId: '7' })
    const raced = await Promise.race([
      seen.abortedGate.promise.then(() => 'aborted'),
      sleep(200).then(() => 'running'),
    ])
    await client.notify('notifications/cancelled', { requestId: 7 })
    await (await pending).text()
    expect(raced).toBe('running')
  })

  /** Starts `await-style`, waits for its elicitation/create, then cancels the call. */
  async function cancelDuringAsk(id: string) {
    const client = await HandshakeClient.connect(main.url)
    const reader = new EventReader(
      await client.open('tools/call', { name: 'await-style', arguments: {} }, { id }),
    )
    const priming = await reader.next()
    const request = await reader.nextMessage()
    expect(request?.method).toBe('elicitation/create')
    const errorsBefore = logger.entries.filter((e) => e.level === 'error').length
    await client.notify('notifications/cancelled', { requestId: id })
    const rest: Json[] = []
    for (;;) {
      const message = await reader.nextMessage(2_000)
      if (message === undefined) break
      rest.push(message)
    }
    const errors = () => logger.entries.filter((e) => e.level === 'error').slice(errorsBefore)
    return { client, request: request!, priming: priming!, rest, errors }
  }

  it('stops waiting for an elicitation answer on notifications/cancelled and writes no response', async () => {
    const { client, request, rest } = await cancelDuringAsk('cancel-ask')
    expect(rest.filter((m) => m.id === 'cancel-ask')).toEqual([])
    // A late answer to the abandoned request is still acknowledged, and changes nothing.
    expect(
      (await client.answer(request.id as string, { result: { action: 'accept', content: { name: 'x' } } }))
        .status,
    ).toBe(202)
  })

  it('ends the stream of a cancelled call cleanly, with nothing logged as an error', async () => {
    const { errors } = await cancelDuringAsk('cancel-clean')
    expect(errors().map((e) => e.obj.event)).toEqual([])
  })

  it('ends a resumption of a cancelled call instead of holding it open forever', async () => {
    const { client, priming } = await cancelDuringAsk('cancel-resume')
    const controller = new AbortController()
    const response = await client.get(priming.id, {}, controller.signal)
    expect(response.status).toBe(200)
    const reader = new EventReader(response)
    try {
      for (;;) if ((await reader.next(1_000)) === undefined) break
    } finally {
      controller.abort()
    }
  })

  it('refuses a tool that asks forever after maxRounds (3) rounds', async () => {
    const client = await HandshakeClient.connect(strict.url)
    const reply = await client.callTool(
      'forever',
      {},
      { onRequest: () => ({ result: { action: 'accept', content: {} } }) },
    )
    expect(reply.requests).toHaveLength(3)
    expect(reply.requests.map((r) => (r.params as Json).message)).toEqual([
      'Question 0?',
      'Question 1?',
      'Question 2?',
    ])
    const error = errorOf(reply)
    expect(error.code).toBe(-32602)
    expect(error.message).toMatch(/too many input rounds/)
  })
})
