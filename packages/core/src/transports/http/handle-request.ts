/**
 * @module handle-request
 * One Streamable HTTP request, whichever face received it: method, Host/Origin, content
 * negotiation, authentication, body, parse, era classification, then the server's door for that
 * era. Checks run in the order the spec gives, and every refusal is one short sentence whose
 * JSON-RPC code and HTTP status come from the error table.
 */
import { SuccessStatus, TesseraError } from '../../errors.ts'
import { classifyRequest } from '../../protocol/eras/classify.ts'
import type { InboundMessage } from '../../protocol/jsonrpc/message.ts'
import { parseMessage } from '../../protocol/jsonrpc/parse.ts'
import { encodeReply, failure, type Reply } from '../../reply.ts'
import { checkHostAndOrigin, readHost } from '../../security/http/host-origin.ts'
import { forwardedBy } from '../../security/http/trusted-proxies.ts'
import type { AuthInfo } from '../../security/request-state/binding.ts'
import type { ServerDoor } from '../../server/door.ts'
import { StringVerdicts } from '../../string-verdicts.ts'
import { authenticateRequest, refusalHeaders } from './auth-http.ts'
import { handshakeDelete, handshakeGet, handshakeInitialize, handshakeMessage } from './handshake-http.ts'
import { HttpExchange } from './http-exchange.ts'
import type { HttpInput } from './http-input.ts'
import { openListenStream } from './listen-stream.ts'
import type { ResolvedHttpOptions } from './options.ts'
import { type ReplyWriter, writeFault, writeReply } from './reply-writer.ts'

/** Answers one HTTP request on the MCP endpoint, whichever era it belongs to. */
export async function handleHttpRequest(
  door: ServerDoor,
  options: ResolvedHttpOptions,
  input: HttpInput,
  writer: ReplyWriter,
): Promise<void> {
  if (!checkHost(options, input, writer)) return
  const sessions = door.handshake
  const isStreamMethod = input.method === 'GET' || input.method === 'DELETE'
  if (input.method !== 'POST' && !(isStreamMethod && sessions)) {
    const allow = sessions ? 'GET, POST, DELETE' : 'POST'
    return writeFault(writer, 'TESSERA_METHOD_NOT_ALLOWED', `Method not allowed: use ${allow}.`, {
      headers: { allow },
    })
  }
  if (input.method === 'POST' && !checkPostHeaders(input, writer)) return
  const auth = options.auth ? await authenticateRequest(options, input, writer) : undefined
  if (auth === false) return
  if (isStreamMethod && sessions) {
    const c = { sessions, logger: door.logger, options, input, writer, auth }
    return input.method === 'GET' ? handshakeGet(c) : handshakeDelete(c)
  }
  let text: string
  try {
    text = await input.body()
  } catch (error) {
    if (!(error instanceof TesseraError)) throw error
    if (error.code === 'TESSERA_TRANSPORT_FAILED')
      door.logger.error({ event: 'http_body_unavailable' }, error.message)
    // The rest of an unread body would be taken for the next request on this connection.
    return writeReply(writer, failure(undefined, error), { connection: 'close' })
  }
  const parsed = parseMessage(text)
  if (!parsed.ok) return writeReply(writer, failure(parsed.id, parsed.error))
  const inbound = parsed.value
  const route = classifyRequest({
    httpMethod: 'POST',
    message: inbound,
    versionHeader: input.headers.get('mcp-protocol-version'),
    sessionId: input.headers.get('mcp-session-id'),
    handshakeEnabled: sessions !== undefined,
  })
  if (door.observer.wants('routed')) announceRoute(door, inbound, route.era, auth)
  if (route.era === 'modern') {
    if (inbound.kind === 'notification') return writer.empty(SuccessStatus.accepted)
    if (inbound.kind !== 'request') return refuse(door, inbound, input, writer)
    if (route.action === 'missing-meta') {
      return writeFault(writer, 'TESSERA_INVALID_ENVELOPE', 'Invalid params: _meta is required.', {
        id: inbound.message.id,
      })
    }
    const exchange = new HttpExchange(input.headers, auth, writer, input.waitUntil, input.client)
    return deliver(await door.modern(inbound.message, exchange), exchange, input, writer, options)
  }
  if (route.era === 'handshake' && sessions) {
    const c = { sessions, logger: door.logger, options, input, writer, auth }
    if (route.action === 'initialize' && inbound.kind === 'request')
      return handshakeInitialize(c, inbound.message)
    if (route.action === 'sessionless') return writer.empty(SuccessStatus.accepted)
    return handshakeMessage(c, inbound)
  }
  return refuse(door, inbound, input, writer)
}

/**
 * Host/Origin first: a rebinding attack must learn nothing, not even which methods exist. A
 * `Host` sent twice, or one that is not a host and an optional port, is a malformed request
 * (400), whatever the policy: which of two hosts was meant cannot be known. Behind a trusted
 * proxy, the host checked is the one the client asked the proxy for. A refusal names the check
 * and the option that admits it, quoting a short, cleaned copy of what was sent. It also settles
 * who the client is (`input.client`): the peer, or the address trusted proxies forwarded for.
 */
function checkHost(options: ResolvedHttpOptions, input: HttpInput, writer: ReplyWriter): boolean {
  const host = readHost(input.headers)
  if (host.kind === 'malformed') {
    writeFault(writer, 'TESSERA_INVALID_REQUEST', `Bad request: ${host.problem}.`)
    return false
  }
  const proxied = options.proxies && forwardedBy(options.proxies, input.peer, input.headers)
  input.client = proxied ? proxied.client : input.peer
  const forwarded = proxied?.host
  if (!options.policy) return true
  const sent = forwarded ?? (host.kind === 'host' ? host.value : undefined)
  const origin = input.headers.get('origin')
  const verdict = checkHostAndOrigin(options.policy, sent, origin)
  if (verdict === 'ok') return true
  writeFault(
    writer,
    'TESSERA_FORBIDDEN',
    refusal(options, input, verdict, sent, origin, forwarded !== undefined),
  )
  return false
}

/** Why a Host or Origin was refused, and what admits it. */
function refusal(
  options: ResolvedHttpOptions,
  input: HttpInput,
  verdict: 'bad-host' | 'bad-origin',
  host: string | undefined,
  origin: string | undefined,
  forwarded: boolean,
): string {
  if (verdict === 'bad-origin') {
    const admit = options.policy?.origins ? 'add it to allowedOrigins' : 'add its host to allowedHosts'
    return `Forbidden: Origin ${quoted(origin)} is not allowed: ${admit}.`
  }
  const what = forwarded ? 'the host the proxy forwarded' : 'Host'
  const proxied =
    !forwarded && (input.headers.get('x-forwarded-host') ?? input.headers.get('forwarded')) !== undefined
  const hint = proxied
    ? ' (forwarding headers came from a peer that is not in trustProxy, and were not read)'
    : ''
  return `Forbidden: ${what} ${quoted(host)} is not allowed: add it to allowedHosts${hint}.`
}

/** `value` as a refusal may quote it: printable ASCII only, 64 characters at most. */
function quoted(value: string | undefined): string {
  if (value === undefined) return '(none)'
  const clean = value.slice(0, 65).replace(/[^\x21-\x7e]/g, '?')
  return `'${clean.length > 64 ? `${clean.slice(0, 64)}…` : clean}'`
}

function checkPostHeaders(input: HttpInput, writer: ReplyWriter): boolean {
  if (!acceptsBoth(input.headers.get('accept'))) {
    writeFault(
      writer,
      'TESSERA_NOT_ACCEPTABLE',
      'Not acceptable: Accept must list application/json and text/event-stream.',
    )
    return false
  }
  if (!isJsonContentType(input.headers.get('content-type'))) {
    writeFault(
      writer,
      'TESSERA_UNSUPPORTED_MEDIA_TYPE',
      'Unsupported media type: Content-Type must be application/json.',
    )
    return false
  }
  return true
}

function deliver(
  reply: Reply,
  exchange: HttpExchange,
  input: HttpInput,
  writer: ReplyWriter,
  options: ResolvedHttpOptions,
): void {
  if (reply.kind === 'response')
    return exchange.respond(reply.status, encodeReply(reply), refusalHeaders(options, reply, exchange.auth))
  if (reply.kind === 'accepted') return writer.empty(SuccessStatus.accepted)
  // Only the modern pipeline answers with a stream, and only for a listen whose body, version
  // and mirrored headers it accepted: this is the one place a request is known to be a stream.
  input.becameStream?.()
  openListenStream(reply, writer, options.keepAliveMs)
}

/** What neither era can serve: a response to nobody, a request without a session, an unsupported version. */
function refuse(door: ServerDoor, inbound: InboundMessage, input: HttpInput, writer: ReplyWriter): void {
  if (inbound.kind === 'response') {
    return writeFault(
      writer,
      'TESSERA_INVALID_REQUEST',
      'Invalid request: there is no request to answer here.',
    )
  }
  if (inbound.kind === 'notification') return writer.empty(SuccessStatus.accepted)
  const request = inbound.message
  if (door.handshake && request.method !== 'initialize') {
    return writeFault(writer, 'TESSERA_SESSION_REQUIRED', 'Bad request: Mcp-Session-Id header is required.', {
      id: request.id,
    })
  }
  const requested =
    request.method === 'initialize'
      ? String(request.params?.protocolVersion ?? '')
      : (input.headers.get('mcp-protocol-version') ?? '')
  const error = new TesseraError(
    'TESSERA_UNSUPPORTED_VERSION',
    'Unsupported protocol version: this server speaks 2026-07-28 only.',
    { supported: door.supportedVersions, requested },
  )
  writeReply(writer, failure(request.id, error))
}

// Clients send the same few Accept values over and over: remember the verdicts.
const acceptVerdicts = new StringVerdicts(256, parseAccept)

function acceptsBoth(accept: string | undefined): boolean {
  return accept !== undefined && acceptVerdicts.of(accept)
}

function parseAccept(accept: string): boolean {
  const types = accept.split(',').map((part) => part.split(';')[0]!.trim().toLowerCase())
  const json = types.some((t) => t === 'application/json' || t === 'application/*' || t === '*/*')
  const sse = types.some((t) => t === 'text/event-stream' || t === 'text/*' || t === '*/*')
  return json && sse
}

function isJsonContentType(value: string | undefined): boolean {
  if (value === undefined) return false
  if (value === 'application/json') return true
  const type = value.split(';')[0]!.trim().toLowerCase()
  return type === 'application/json'
}

/** What a parsed message is: its era, method, target and caller. */
function announceRoute(
  door: ServerDoor,
  inbound: InboundMessage,
  era: string,
  auth: AuthInfo | undefined,
): void {
  if (inbound.kind === 'response') return
  const { method, params } = inbound.message
  const target = params?.name ?? params?.uri
  door.observer.announce({
    step: 'routed',
    era: era === 'modern' || era === 'handshake' ? era : undefined,
    method,
    target: typeof target === 'string' ? target.slice(0, 256) : undefined,
    subject: auth?.subject,
  })
}
