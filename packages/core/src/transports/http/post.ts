/**
 * @module post
 * One Streamable HTTP request, whichever face received it: method, Host/Origin, content
 * negotiation, authentication, parse, era classification, dispatch, reply. Checks run in the
 * order of the spec digest §8.5, and every refusal is one short sentence with its own status.
 */
import { wireMappings } from '../../errors.ts'
import { ErrorCode } from '../../protocol/jsonrpc/error-codes.ts'
import type { JsonRpcErrorObject, JsonRpcRequest } from '../../protocol/jsonrpc/message.ts'
import { parseMessage } from '../../protocol/jsonrpc/parse.ts'
import { hasModernClaim } from '../../protocol/modern/envelope.ts'
import type { HeaderView } from '../../protocol/modern/header-view.ts'
import { isModernVersion } from '../../protocol/modern/vocabulary.ts'
import { checkHostAndOrigin } from '../../security/http/host-origin.ts'
import type { AuthInfo } from '../../security/request-state/binding.ts'
import type { McpServer } from '../../server/create-server.ts'
import type { Reply } from '../../server/pipeline/reply.ts'
import { HttpExchange } from './http-exchange.ts'
import { HttpAuthError, type ResolvedHttpOptions } from './options.ts'
import type { ReplyWriter } from './reply-writer.ts'
import { openListenStream } from './listen-stream.ts'

export interface HttpInput {
  method: string
  headers: HeaderView
  /** Reads the body as text, or returns undefined when it exceeds the limit. */
  body(): Promise<string | undefined>
}

/** Checks that need no body; returns false when it already answered. */
export function precheck(options: ResolvedHttpOptions, input: HttpInput, writer: ReplyWriter): boolean {
  const headers = input.headers
  if (options.policy) {
    const verdict = checkHostAndOrigin(options.policy, headers.get('host'), headers.get('origin'))
    if (verdict !== 'ok') {
      writeError(writer, 403, undefined, ErrorCode.InvalidRequest, `Forbidden: ${verdict === 'bad-host' ? 'Host' : 'Origin'} is not allowed.`)
      return false
    }
  }
  if (input.method !== 'POST') {
    writeError(writer, 405, undefined, ErrorCode.InvalidRequest, 'Method not allowed: this endpoint accepts POST only.', {
      allow: 'POST',
    })
    return false
  }
  if (!acceptsBoth(headers.get('accept'))) {
    writeError(writer, 406, undefined, ErrorCode.InvalidRequest, 'Not acceptable: Accept must list application/json and text/event-stream.')
    return false
  }
  if (!isJsonContentType(headers.get('content-type'))) {
    writeError(writer, 415, undefined, ErrorCode.InvalidRequest, 'Unsupported media type: Content-Type must be application/json.')
    return false
  }
  return true
}

export async function handlePost(
  server: McpServer,
  options: ResolvedHttpOptions,
  input: HttpInput,
  writer: ReplyWriter,
): Promise<void> {
  if (!precheck(options, input, writer)) return
  let auth: AuthInfo | undefined
  if (options.authenticate) {
    try {
      auth = await options.authenticate(input.headers)
    } catch (error) {
      return writeAuthError(writer, error)
    }
  }
  const text = await input.body()
  if (text === undefined) {
    return writeError(writer, 413, undefined, ErrorCode.InvalidRequest, 'Payload too large: the request body exceeds the limit.')
  }
  const parsed = parseMessage(text)
  if (!parsed.ok) return writeError(writer, 400, parsed.id, parsed.error.code, parsed.error.message)
  const inbound = parsed.value
  if (inbound.kind === 'notification') return writer.empty(202)
  if (inbound.kind === 'response') {
    return writeError(writer, 400, undefined, ErrorCode.InvalidRequest, 'Invalid request: a 2026-07-28 server sends no requests to answer.')
  }
  const request = inbound.message
  if (!hasModernClaim(request.params)) return refuseUnclaimed(server, request, input.headers, writer)
  const exchange = new HttpExchange(input.headers, auth, writer)
  const reply = await server.handleModern(request, exchange)
  deliver(reply, exchange, writer, options)
}

function deliver(reply: Reply, exchange: HttpExchange, writer: ReplyWriter, options: ResolvedHttpOptions): void {
  if (reply.kind === 'response') return exchange.respond(reply.status, reply.body)
  if (reply.kind === 'accepted') return writer.empty(202)
  openListenStream(reply, writer, options.keepAliveMs)
}

/** A request without the modern `_meta` claim on a server that does not speak the handshake era. */
function refuseUnclaimed(server: McpServer, request: JsonRpcRequest, headers: HeaderView, writer: ReplyWriter): void {
  const versionHeader = headers.get('mcp-protocol-version')
  const supported = [...server.core.versions.modern, ...server.core.versions.legacy]
  if (request.method === 'initialize' || (versionHeader !== undefined && !isModernVersion(versionHeader))) {
    const requested = request.method === 'initialize' ? String(request.params?.protocolVersion ?? '') : versionHeader
    return writeError(writer, 400, request.id, ErrorCode.UnsupportedProtocolVersion, 'Unsupported protocol version: this server speaks 2026-07-28 only.', undefined, {
      supported,
      requested: requested ?? '',
    })
  }
  writeError(writer, 400, request.id, ErrorCode.InvalidParams, 'Invalid params: _meta is required.')
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

function acceptsBoth(accept: string | undefined): boolean {
  if (accept === undefined) return false
  const types = accept.split(',').map((part) => part.split(';')[0]!.trim().toLowerCase())
  const json = types.some((t) => t === 'application/json' || t === 'application/*' || t === '*/*')
  const sse = types.some((t) => t === 'text/event-stream' || t === 'text/*' || t === '*/*')
  return json && sse
}

function isJsonContentType(value: string | undefined): boolean {
  if (value === undefined) return false
  const type = value.split(';')[0]!.trim().toLowerCase()
  return type === 'application/json'
}

export { wireMappings }
