/**
 * @module handshake-http
 * Streamable HTTP of 2025-11-25 on the shared endpoint, as bytes: `initialize` answers with the
 * `Mcp-Session-Id` of the session the server opened, every other message goes to the session it
 * names, GET opens the standalone stream (or resumes a broken one with `Last-Event-ID`), DELETE
 * ends the session. What any of it means is decided by the server's handshake door.
 */
import { SuccessStatus } from '../../errors.ts'
import type { Logger } from '../../observation/logger.ts'
import { parseEventId } from '../../protocol/handshake/event-id.ts'
import type { InboundMessage, JsonObject, JsonRpcRequest } from '../../protocol/jsonrpc/message.ts'
import { failure, toTesseraError } from '../../reply.ts'
import type { AuthInfo } from '../../security/request-state/binding.ts'
import type { HandshakeDoor, SessionDoor } from '../../server/door.ts'
import { backgroundInterval } from '../../timers.ts'
import { refusalHeaders } from './auth-http.ts'
import { eventFrame, HandshakeHttpExchange, newStreamId, RETRY_MS } from './handshake-exchange.ts'
import type { HttpInput } from './http-input.ts'
import type { ResolvedHttpOptions } from './options.ts'
import { type ReplyWriter, SSE_HEADERS, writeFault, writeReply } from './reply-writer.ts'

export interface HandshakeRequest {
  sessions: HandshakeDoor
  logger: Logger
  options: ResolvedHttpOptions
  input: HttpInput
  writer: ReplyWriter
  auth: AuthInfo | undefined
}

export async function handshakeInitialize(c: HandshakeRequest, request: JsonRpcRequest): Promise<void> {
  let opened: Awaited<ReturnType<HandshakeDoor['open']>>
  try {
    opened = await c.sessions.open(request, c.auth, { headers: c.input.headers })
  } catch (error) {
    return writeReply(
      c.writer,
      failure(
        request.id,
        toTesseraError(error, (err) =>
          c.logger.error({ event: 'session_open_failed', err }, 'a handshake session could not be opened'),
        ),
      ),
    )
  }
  const body = JSON.stringify({ jsonrpc: '2.0', id: request.id, result: opened.result })
  c.writer.json(SuccessStatus.ok, body, { 'mcp-session-id': opened.session.id })
}

/** The session a request names, or undefined with the refusal already written. */
async function sessionOf(
  c: HandshakeRequest,
  id: JsonRpcRequest['id'] | undefined,
): Promise<SessionDoor | undefined> {
  try {
    return await c.sessions.find(
      c.input.headers.get('mcp-session-id'),
      c.auth,
      c.input.headers.get('mcp-protocol-version'),
    )
  } catch (error) {
    writeReply(
      c.writer,
      failure(
        id,
        toTesseraError(error, (err) =>
          c.logger.error({ event: 'session_lookup_failed', err }, 'a handshake session could not be read'),
        ),
      ),
    )
    return undefined
  }
}

export async function handshakeMessage(c: HandshakeRequest, inbound: InboundMessage): Promise<void> {
  const session = await sessionOf(c, inbound.kind === 'request' ? inbound.message.id : undefined)
  if (!session) return
  if (inbound.kind === 'response') {
    session.response(inbound.message, c.auth)
    return c.writer.empty(SuccessStatus.accepted)
  }
  if (inbound.kind === 'notification') {
    await session.notification(inbound.message, c.auth)
    return c.writer.empty(SuccessStatus.accepted)
  }
  const exchange = new HandshakeHttpExchange(
    c.input.headers,
    c.auth,
    c.writer,
    c.sessions.events,
    session.id,
    c.input.client,
  )
  const reply = await session.request(inbound.message, exchange)
  if (reply === undefined) await exchange.abandon()
  else await exchange.respond(reply, refusalHeaders(c.options, reply, c.auth))
}

export async function handshakeDelete(c: HandshakeRequest): Promise<void> {
  const session = await sessionOf(c, undefined)
  if (!session) return
  await session.end()
  c.writer.empty(SuccessStatus.ok)
}

export async function handshakeGet(c: HandshakeRequest): Promise<void> {
  const session = await sessionOf(c, undefined)
  if (!session) return
  const accept = c.input.headers.get('accept') ?? ''
  if (!accept.includes('text/event-stream') && !accept.includes('*/*')) {
    return writeFault(
      c.writer,
      'TESSERA_NOT_ACCEPTABLE',
      'Not acceptable: GET needs Accept: text/event-stream.',
    )
  }
  const lastEventId = c.input.headers.get('last-event-id')
  const owned = parseEventId(lastEventId)?.streamId.startsWith(`${session.id}.`) === true
  if (owned) return resume(c, lastEventId!)
  return standalone(c, session)
}

async function resume(c: HandshakeRequest, lastEventId: string): Promise<void> {
  const stream = c.writer.sse(SSE_HEADERS)
  const controller = new AbortController()
  c.writer.onClose(() => controller.abort())
  await c.sessions.events.replay(
    lastEventId,
    (event) => stream.write(eventFrame(event.id, event.message)),
    controller.signal,
  )
  if (!c.writer.closed) stream.end()
}

/** The standalone GET stream: the session's notifications, each stored before it is written. */
async function standalone(c: HandshakeRequest, session: SessionDoor): Promise<void> {
  const { events } = c.sessions
  const stream = c.writer.sse(SSE_HEADERS)
  const streamId = newStreamId(session.id, 'get')
  let stopped = false
  let unfollow = () => {}
  let timer: NodeJS.Timeout | undefined
  const stop = () => {
    if (stopped) return
    stopped = true
    clearInterval(timer)
    unfollow()
    void events.finish(streamId)
  }
  // Before the first await: a client that leaves while the priming event is stored is noticed.
  c.writer.onClose(stop)
  const priming = await events.append(streamId, undefined)
  if (stopped) return
  stream.write(`id: ${priming}\nretry: ${RETRY_MS}\ndata: \n\n`)
  let chain = Promise.resolve()
  timer = backgroundInterval(() => {
    if (!c.writer.closed) stream.write(': keep-alive\n\n')
  }, c.options.keepAliveMs)
  unfollow = session.follow(
    {
      send(message: JsonObject) {
        chain = chain.then(async () => {
          const id = await events.append(streamId, message)
          if (!c.writer.closed) stream.write(eventFrame(id, message))
        })
      },
      end() {
        stop()
        if (!c.writer.closed) stream.end()
      },
    },
    c.auth,
  )
}
