/**
 * @module handle-request
 * One Streamable HTTP request, whichever face received it: method, Host/Origin, content
 * negotiation, authentication, parse, era classification, dispatch, reply. Checks run in the
 * order of the spec digest §8.5, and every refusal is one short sentence with its own status.
 */

import { classify } from '../../protocol/eras/classify.ts'
import { ErrorCode } from '../../protocol/jsonrpc/error-codes.ts'
import type { InboundMessage, JsonRpcErrorObject, JsonRpcRequest } from '../../protocol/jsonrpc/message.ts'
import { parseMessage } from '../../protocol/jsonrpc/parse.ts'
import type { HeaderView } from '../../protocol/modern/header-view.ts'
import { checkHostAndOrigin } from '../../security/http/host-origin.ts'
import type { AuthInfo } from '../../security/request-state/binding.ts'
import type { McpServer } from '../../server/create-server.ts'
import { encodeReply, type Reply } from '../../server/pipeline/reply.ts'
import { HttpExchange } from './http-exchange.ts'
import { legacyDelete, legacyGet, legacyInitialize, legacyMessage } from './legacy-http.ts'
import { openListenStream } from './listen-stream.ts'
import { HttpAuthError, type ResolvedHttpOptions } from './options.ts'
import type { ReplyWriter } from './reply-writer.ts'

export interface HttpInput {
  method: string
  headers: HeaderView
  /** Reads the body as text, or returns undefined when it exceeds the limit. */
  body(): Promise<string | undefined>
}

/** Host/Origin first: a rebinding attack must learn nothing, not even which methods exist. */
function checkHost(options: ResolvedHttpOptions, input: HttpInput, writer: ReplyWriter): boolean {
  if (!options.policy) return true
  const verdict = checkHostAndOrigin(options.policy, input.headers.get('host'), input.headers.get('origin'))
  if (verdict === 'ok') return true
  const which = verdict === 'bad-host' ? 'Host' : 'Origin'
  writeError(writer, 403, undefined, ErrorCode.InvalidRequest, `Forbidden: ${which} is not allowed.`)
  return false
}

function checkPostHeaders(input: HttpInput, writer: ReplyWriter): boolean {
  if (!acceptsBoth(input.headers.get('accept'))) {
    writeError(
      writer,
      406,
      undefined,
      ErrorCode.InvalidRequest,
      'Not acceptable: Accept must list application/json and text/event-stream.',
    )
    return false
  }
  if (!isJsonContentType(input.headers.get('content-type'))) {
    writeError(
      writer,
      415,
      undefined,
      ErrorCode.InvalidRequest,
      'Unsupported media type: Content-Type must be application/json.',
    )
    return false
  }
  return true
}

async function authenticate(
  options: ResolvedHttpOptions,
  input: HttpInput,
  writer: ReplyWriter,
): Promise<AuthInfo | undefined | false> {
  if (!options.authenticate) return undefined
  try {
    return await options.authenticate(input.headers)
  } catch (error) {
    writeAuthError(writer, error)
    return false
  }
}

/** Answers one HTTP request on the MCP endpoint, whichever era it belongs to. */
export async function handleHttpRequest(
  server: McpServer,
  options: ResolvedHttpOptions,
  input: HttpInput,
  writer: ReplyWriter,
): Promise<void> {
  if (!checkHost(options, input, writer)) return
  const runtime = server.core.handshake
  const isStreamMethod = input.method === 'GET' || input.method === 'DELETE'
  if (input.method !== 'POST' && !(isStreamMethod && runtime)) {
    const allow = runtime ? 'GET, POST, DELETE' : 'POST'
    return writeError(writer, 405, undefined, ErrorCode.InvalidRequest, `Method not allowed: use ${allow}.`, {
      allow,
    })
  }
  if (input.method === 'POST' && !checkPostHeaders(input, writer)) return
  const auth = options.authenticate ? await authenticate(options, input, writer) : undefined
  if (auth === false) return
  if (isStreamMethod && runtime) {
    const c = { server, runtime, options, input, writer, auth }
    return input.method === 'GET' ? legacyGet(c) : legacyDelete(c)
  }
  const text = await input.body()
  if (text === undefined) {
    return writeError(
      writer,
      413,
      undefined,
      ErrorCode.InvalidRequest,
      'Payload too large: the request body exceeds the limit.',
    )
  }
  const parsed = parseMessage(text)
  if (!parsed.ok) return writeError(writer, 400, parsed.id, parsed.error.code, parsed.error.message)
  const inbound = parsed.value
  const route = classify({
    httpMethod: 'POST',
    message: inbound,
    versionHeader: input.headers.get('mcp-protocol-version'),
    sessionId: input.headers.get('mcp-session-id'),
    legacyEnabled: runtime !== undefined,
  })
  if (route.era === 'modern') {
    if (inbound.kind === 'notification') return writer.empty(202)
    if (inbound.kind !== 'request') return refuse(server, inbound, input.headers, writer)
    if (route.action === 'missing-meta') {
      return writeError(
        writer,
        400,
        inbound.message.id,
        ErrorCode.InvalidParams,
        'Invalid params: _meta is required.',
      )
    }
    const exchange = new HttpExchange(input.headers, auth, writer)
    const reply = await server.handleModern(inbound.message, exchange)
    return deliver(reply, exchange, writer, options)
  }
  if (route.era === 'legacy' && runtime) {
    const c = { server, runtime, options, input, writer, auth }
    if (route.action === 'initialize') return legacyInitialize(c, inbound.message as JsonRpcRequest)
    if (route.action === 'sessionless') return writer.empty(202)
    return legacyMessage(c, inbound)
  }
  return refuse(server, inbound, input.headers, writer)
}

function deliver(
  reply: Reply,
  exchange: HttpExchange,
  writer: ReplyWriter,
  options: ResolvedHttpOptions,
): void {
  if (reply.kind === 'response') return exchange.respond(reply.status, encodeReply(reply))
  if (reply.kind === 'accepted') return writer.empty(202)
  openListenStream(reply, writer, options.keepAliveMs)
}

/** What neither era can serve: a response to nobody, a legacy request without a session, an unsupported version. */
function refuse(server: McpServer, inbound: InboundMessage, headers: HeaderView, writer: ReplyWriter): void {
  if (inbound.kind === 'response') {
    return writeError(
      writer,
      400,
      undefined,
      ErrorCode.InvalidRequest,
      'Invalid request: there is no request to answer here.',
    )
  }
  if (inbound.kind === 'notification') return writer.empty(202)
  const request = inbound.message
  if (server.core.handshake && request.method !== 'initialize') {
    return writeError(
      writer,
      400,
      request.id,
      ErrorCode.InvalidRequest,
      'Bad request: Mcp-Session-Id header is required.',
    )
  }
  const versionHeader = headers.get('mcp-protocol-version')
  const supported = [...server.core.versions.modern, ...server.core.versions.legacy]
  const requested =
    request.method === 'initialize' ? String(request.params?.protocolVersion ?? '') : (versionHeader ?? '')
  writeError(
    writer,
    400,
    request.id,
    ErrorCode.UnsupportedProtocolVersion,
    'Unsupported protocol version: this server speaks 2026-07-28 only.',
    undefined,
    {
      supported,
      requested,
    },
  )
}

function writeAuthError(writer: ReplyWriter, error: unknown): void {
  if (error instanceof HttpAuthError) {
    const headers: Record<string, string> = {}
    if (error.wwwAuthenticate) headers['www-authenticate'] = error.wwwAuthenticate
    return writeError(writer, error.status, undefined, ErrorCode.InvalidRequest, error.message, headers)
  }
  writeError(writer, 401, undefined, ErrorCode.InvalidRequest, 'Unauthorized.')
}

export function writeError(
  writer: ReplyWriter,
  status: number,
  id: JsonRpcRequest['id'] | undefined,
  code: number,
  message: string,
  headers?: Record<string, string>,
  data?: unknown,
): void {
  const error: JsonRpcErrorObject = data === undefined ? { code, message } : { code, message, data }
  const body = id === undefined ? { jsonrpc: '2.0', error } : { jsonrpc: '2.0', id, error }
  writer.json(status, JSON.stringify(body), headers)
}

// Clients send the same few Accept values over and over: remember the verdicts.
const acceptVerdicts = new Map<string, boolean>()

function acceptsBoth(accept: string | undefined): boolean {
  if (accept === undefined) return false
  const known = acceptVerdicts.get(accept)
  if (known !== undefined) return known
  const verdict = parseAccept(accept)
  if (acceptVerdicts.size < 256) acceptVerdicts.set(accept, verdict)
  return verdict
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
