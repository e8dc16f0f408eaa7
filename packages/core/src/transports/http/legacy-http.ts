/**
 * @module legacy-http
 * Streamable HTTP of 2025-11-25 on the shared endpoint: `initialize` opens a session
 * (`Mcp-Session-Id`), requests in a session are served by the legacy pipeline, the client's
 * responses reach the server-to-client requests waiting for them, GET opens the standalone
 * stream or resumes a broken one with `Last-Event-ID`, DELETE ends the session.
 */
import { ErrorCode } from '../../protocol/jsonrpc/error-codes.ts'
import type { InboundMessage, JsonObject, JsonRpcRequest } from '../../protocol/jsonrpc/message.ts'
import type { AuthInfo } from '../../security/request-state/binding.ts'
import type { McpServer } from '../../server/create-server.ts'
import { streamOf } from '../../server/legacy/event-store.ts'
import { newSession } from '../../server/legacy/initialize.ts'
import { inflightKey } from '../../server/legacy/outbound.ts'
import { principalKey } from '../../server/legacy/principal.ts'
import { serveLegacy } from '../../server/legacy/serve-legacy.ts'
import { sessionNotificationFor } from '../../server/legacy/session-notifications.ts'
import type { LegacySession } from '../../server/legacy/session-store.ts'
import { toTesseraError } from '../../server/pipeline/reply.ts'
import type { HandshakeRuntime } from '../../server/server-core.ts'
import type { HttpInput } from './handle-request.ts'
import { writeError } from './handle-request.ts'
import { eventFrame, LegacyHttpExchange, RETRY_MS, streamIdFor } from './legacy-exchange.ts'
import type { ResolvedHttpOptions } from './options.ts'
import { type ReplyWriter, SSE_HEADERS } from './reply-writer.ts'

export interface LegacyContext {
  server: McpServer
  runtime: HandshakeRuntime
  options: ResolvedHttpOptions
  input: HttpInput
  writer: ReplyWriter
  auth: AuthInfo | undefined
}

export async function legacyInitialize(c: LegacyContext, request: JsonRpcRequest): Promise<void> {
  let opened: ReturnType<typeof newSession>
  try {
    opened = newSession(c.server.core, request.params, principalKey(c.auth))
  } catch (error) {
    const fault = toTesseraError(error, () => {})
    return writeError(c.writer, 200, request.id, fault.jsonrpcCode, fault.message)
  }
  if (!(await c.runtime.sessions.create(opened.session))) {
    return writeError(
      c.writer,
      503,
      request.id,
      ErrorCode.InternalError,
      'Too many sessions; try again later.',
    )
  }
  const body = JSON.stringify({ jsonrpc: '2.0', id: request.id, result: opened.result })
  c.writer.json(200, body, { 'mcp-session-id': opened.session.id })
}

/** The session a request names, or an answer already written (400 missing, 404 unknown). */
export async function requireSession(
  c: LegacyContext,
  id: JsonRpcRequest['id'] | undefined,
): Promise<LegacySession | undefined> {
  const sessionId = c.input.headers.get('mcp-session-id')
  if (sessionId === undefined) {
    writeError(c.writer, 400, id, ErrorCode.InvalidRequest, 'Bad request: Mcp-Session-Id header is required.')
    return undefined
  }
  const session = sessionId.length > 256 ? undefined : await c.runtime.sessions.get(sessionId)
  // A session opened by another principal is reported exactly like an unknown one.
  if (session === undefined || session.principal !== principalKey(c.auth)) {
    writeError(c.writer, 404, id, ErrorCode.InvalidRequest, 'Session not found.')
    return undefined
  }
  const version = c.input.headers.get('mcp-protocol-version')
  if (version !== undefined && !c.server.core.versions.legacy.includes(version)) {
    writeError(c.writer, 400, id, ErrorCode.InvalidRequest, 'Bad request: unsupported MCP-Protocol-Version.')
    return undefined
  }
  return session
}

export async function legacyMessage(c: LegacyContext, inbound: InboundMessage): Promise<void> {
  const session = await requireSession(c, inbound.kind === 'request' ? inbound.message.id : undefined)
  if (!session) return
  if (inbound.kind === 'response') {
    // The question may be waiting on another instance: hand the answer over the bus.
    if (!c.runtime.outbound.deliver(session.id, inbound.message)) {
      c.server.core.bus.publish({ type: 'client-response', sessionId: session.id, response: inbound.message })
    }
    return c.writer.empty(202)
  }
  if (inbound.kind === 'notification') {
    await legacyNotification(c, session, inbound.message.method, inbound.message.params)
    return c.writer.empty(202)
  }
  const request = inbound.message
  const key = inflightKey(session.id, request.id)
  const controller = new AbortController()
  c.runtime.inflight.set(key, controller)
  const exchange = new LegacyHttpExchange(c.input.headers, c.auth, c.writer, c.runtime, session, controller)
  try {
    const reply = await serveLegacy(c.server.core, request, session, c.runtime.sessions, exchange)
    if (controller.signal.aborted) await exchange.abandon()
    else if (reply.kind === 'response')
      await exchange.respond(reply.status, reply.body as unknown as JsonObject)
  } finally {
    c.runtime.inflight.delete(key)
  }
}

async function legacyNotification(
  c: LegacyContext,
  session: LegacySession,
  method: string,
  params: JsonObject | undefined,
): Promise<void> {
  if (method === 'notifications/initialized' && !session.initialized) {
    await c.runtime.sessions.apply(session.id, { kind: 'initialized' })
  }
  if (method === 'notifications/cancelled') {
    const id = params?.requestId
    if (typeof id === 'string' || typeof id === 'number') {
      const running = c.runtime.inflight.get(inflightKey(session.id, id))
      if (running) running.abort()
      else c.server.core.bus.publish({ type: 'client-cancel', sessionId: session.id, requestId: id })
    }
  }
}

export async function legacyDelete(c: LegacyContext): Promise<void> {
  const session = await requireSession(c, undefined)
  if (!session) return
  await c.runtime.sessions.delete(session.id)
  c.server.core.bus.publish({ type: 'session-ended', sessionId: session.id })
  c.writer.empty(200)
}

export async function legacyGet(c: LegacyContext): Promise<void> {
  const session = await requireSession(c, undefined)
  if (!session) return
  const accept = c.input.headers.get('accept') ?? ''
  if (!accept.includes('text/event-stream') && !accept.includes('*/*')) {
    return writeError(
      c.writer,
      406,
      undefined,
      ErrorCode.InvalidRequest,
      'Not acceptable: GET needs Accept: text/event-stream.',
    )
  }
  const lastEventId = c.input.headers.get('last-event-id')
  const owned = lastEventId !== undefined && streamOf(lastEventId)?.startsWith(`${session.id}.`) === true
  if (owned) return resume(c, lastEventId)
  return standalone(c, session)
}

async function resume(c: LegacyContext, lastEventId: string): Promise<void> {
  const stream = c.writer.sse(SSE_HEADERS)
  const controller = new AbortController()
  c.writer.onClose(() => controller.abort())
  await c.runtime.events.replay(
    lastEventId,
    (event) => stream.write(eventFrame(event.id, event.message)),
    controller.signal,
  )
  if (!c.writer.closed) stream.end()
}

async function standalone(c: LegacyContext, session: LegacySession): Promise<void> {
  const core = c.server.core
  const stream = c.writer.sse(SSE_HEADERS)
  const streamId = streamIdFor(session, 'get')
  const priming = await c.runtime.events.append(streamId, undefined)
  stream.write(`id: ${priming}\nretry: ${RETRY_MS}\ndata: \n\n`)
  let chain = Promise.resolve()
  const send = (message: JsonObject) => {
    chain = chain.then(async () => {
      const id = await c.runtime.events.append(streamId, message)
      if (!c.writer.closed) stream.write(eventFrame(id, message))
    })
  }
  const timer = setInterval(() => {
    if (!c.writer.closed) stream.write(': keep-alive\n\n')
  }, c.options.keepAliveMs)
  timer.unref()
  const unsubscribe = core.bus.subscribe((event) => {
    if (event.type === 'shutdown' || (event.type === 'session-ended' && event.sessionId === session.id)) {
      stop()
      if (!c.writer.closed) stream.end()
      return
    }
    void sessionNotificationFor(core, c.runtime.sessions, session.id, event).then((message) => {
      if (message) send(message)
    })
  })
  const stop = () => {
    clearInterval(timer)
    unsubscribe()
    void c.runtime.events.finish(streamId)
  }
  c.writer.onClose(stop)
}
