/**
 * @module handshake-replies
 * Reading a 2025-11-25 answer: a JSON body as is, an SSE stream to its end with every event,
 * notification and server-to-client request kept (each request answered through a test's
 * handler), and the small readers tests use on the result (`resultOf`, `errorOf`, `textOf`) plus
 * a handler that accepts every question.
 */
import type { Json, RpcId } from './json-rpc.ts'
import { EventReader, type SseEvent } from './sse-events.ts'

/** How a test answers a server-to-client request: a result, an error, or no answer at all. */
export type ClientAnswer =
  | { result: Json }
  | { error: { code: number; message: string; data?: unknown } }
  | 'ignore'
export type RequestHandler = (request: Json) => ClientAnswer | Promise<ClientAnswer>

/** A decoded answer: the final JSON-RPC response (if it came) and everything streamed before it. */
export interface HandshakeReply {
  status: number
  headers: Headers
  contentType: string
  /** The JSON-RPC response to our request; undefined when the stream closed before it (or for 202). */
  body: Json | undefined
  /** Every SSE event in order, priming events included (empty for JSON answers). */
  events: SseEvent[]
  /** Every JSON-RPC message in order (notifications, server requests, the response). */
  messages: Json[]
  notifications: Json[]
  /** Server-to-client requests seen on this answer. */
  requests: Json[]
  /** Id of the last SSE event that had one: what a reconnect sends as Last-Event-ID. */
  lastEventId: string | undefined
  /** The `retry:` field the server sent, if any. */
  retry: number | undefined
}

/**
 * What `readAnswer` needs to answer server requests: the client's `answer`. Declared here, not
 * imported, because the client module imports this one.
 */
export interface Answerer {
  answer(id: RpcId, answer: Exclude<ClientAnswer, 'ignore'>): Promise<Response>
}

/**
 * Reads an answer: JSON as is; SSE to its end, answering server requests through `onRequest`
 * (no handler: they stay unanswered). The response to `expectId` becomes `body`.
 */
export async function readAnswer(
  response: Response,
  options: {
    client?: Answerer
    expectId?: RpcId
    onRequest?: RequestHandler
    timeoutMs?: number
  } = {},
): Promise<HandshakeReply> {
  const contentType = response.headers.get('content-type') ?? ''
  const reply: HandshakeReply = {
    status: response.status,
    headers: response.headers,
    contentType,
    body: undefined,
    events: [],
    messages: [],
    notifications: [],
    requests: [],
    lastEventId: undefined,
    retry: undefined,
  }
  if (!contentType.startsWith('text/event-stream')) {
    const raw = await response.text()
    if (raw !== '') {
      reply.body = JSON.parse(raw) as Json
      reply.messages.push(reply.body)
    }
    return reply
  }
  const reader = new EventReader(response)
  const answering: Promise<unknown>[] = []
  for (;;) {
    const event = await reader.next(options.timeoutMs ?? 5_000)
    if (event === undefined) break
    reply.events.push(event)
    if (event.id !== undefined) reply.lastEventId = event.id
    if (event.retry !== undefined) reply.retry = event.retry
    const message = event.message
    if (message === undefined) continue
    reply.messages.push(message)
    if (typeof message.method === 'string' && 'id' in message) {
      reply.requests.push(message)
      const handler = options.onRequest
      if (handler && options.client) {
        const client = options.client
        answering.push(
          Promise.resolve(handler(message)).then((answer) =>
            answer === 'ignore'
              ? undefined
              : client.answer(message.id as RpcId, answer).then((r) => r.text()),
          ),
        )
      }
    } else if (typeof message.method === 'string') {
      reply.notifications.push(message)
    } else if (options.expectId === undefined || message.id === options.expectId) {
      reply.body = message
    }
  }
  await Promise.all(answering)
  return reply
}

/** The `result` member of a reply, or a thrown error naming what came instead. */
export function resultOf(reply: HandshakeReply): Json {
  const result = reply.body?.result as Json | undefined
  if (result === undefined)
    throw new Error(`expected a result, got ${reply.status} ${JSON.stringify(reply.body ?? reply.messages)}`)
  return result
}

/** The `error` member of a reply, or a thrown error naming what came instead. */
export function errorOf(reply: HandshakeReply): { code: number; message: string; data?: unknown } {
  const error = reply.body?.error as { code: number; message: string; data?: unknown } | undefined
  if (error === undefined)
    throw new Error(`expected an error, got ${reply.status} ${JSON.stringify(reply.body ?? reply.messages)}`)
  return error
}

/** The concatenated text blocks of a tool result. */
export { textOf } from './json-rpc.ts'

/** Accepts every elicitation with `content`, and answers roots/sampling plausibly. */
export function acceptWith(content: Json): RequestHandler {
  return (request) => {
    if (request.method === 'elicitation/create') return { result: { action: 'accept', content } }
    if (request.method === 'roots/list')
      return { result: { roots: [{ uri: 'file:///workspace', name: 'ws' }] } }
    if (request.method === 'sampling/createMessage') {
      return {
        result: { role: 'assistant', content: { type: 'text', text: 'sampled' }, model: 'test-model' },
      }
    }
    return { error: { code: -32601, message: 'Method not found' } }
  }
}
