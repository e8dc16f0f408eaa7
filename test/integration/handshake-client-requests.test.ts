/**
 * @module handshake-client-requests.test
 * Handlers written once, MRTR style, serving a 2025-11-25 client through real server-to-client
 * requests over HTTP: one ask, a form typed by a zod schema, the 202 for a POSTed answer,
 * sequential asks, a decline, URL elicitation, sampling and roots, a client that declared no
 * elicitation, and a JSON-RPC error reply read as a cancel.
 */
import { describe, expect, it } from 'vitest'
import {
  acceptWith,
  EventReader,
  errorOf,
  HandshakeClient,
  type Json,
  resultOf,
  textOf,
} from '../helpers/handshake-client.ts'
import { main, nameForm, useAskingServers } from './fixtures/asking-servers.ts'

useAskingServers()

describe('MRTR handlers through real elicitation/create requests', () => {
  it('runsAnAwaitStyleToolOneElicitationCreateOnThePostStreamThenTheResult', async () => {
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

  it('acknowledgesThePostedAnswerWith202', async () => {
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

  it('runsATwoStepToolTwoSequentialRequestsTheSecondBuiltFromTheFirstAnswer', async () => {
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

  it('passesADeclineToTheHandler', async () => {
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

  it('mintsAnElicitationIdForAUrlElicitation', async () => {
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

  it('sendsRootsListAndSamplingCreateMessageAsRealRequestsToo', async () => {
    const client = await HandshakeClient.connect(main.url)
    const reply = await client.callTool('sample-and-roots', {}, { onRequest: acceptWith({}) })
    expect(textOf(resultOf(reply))).toBe('file:///workspace / test-model')
    expect(reply.requests.map((r) => r.method)).toEqual(['roots/list', 'sampling/createMessage'])
  })

  it('refusesToAskAClientThatDidNotDeclareElicitation', async () => {
    const client = await HandshakeClient.connect(main.url, {})
    const bare = new HandshakeClient(main.url, { capabilities: {} })
    await bare.initialize()
    const reply = await bare.callTool('await-style')
    expect(reply.requests).toEqual([])
    expect(errorOf(reply).code).toBe(-32602)
    expect(client.sessionId).not.toBe(bare.sessionId)
  })

  it('readsAJsonRpcErrorReplyToAnElicitationAsACancel', async () => {
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
