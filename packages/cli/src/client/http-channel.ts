/**
 * @module http-channel
 * Streamable HTTP: each message is one POST; the answer is JSON, or an SSE stream carrying the
 * request's notifications, the server's questions (answered with POSTs of their own) and finally
 * the response. The session id a 2025-11-25 server hands out at initialize is kept and sent back.
 */
import { createParser } from 'eventsource-parser'
import type { Channel, RequestTraffic } from './channel.ts'
import { isObject, isResponse, type JsonObject, type RpcRequest, TransportError } from './json-rpc.ts'

export interface HttpChannelOptions {
  /** Sent with every request (`authorization`, say). */
  headers?: Record<string, string>
}

export function httpChannel(url: string, options: HttpChannelOptions = {}): Channel {
  let sessionId: string | undefined
  let protocolVersion: string | undefined
  const base = (): Record<string, string> => {
    const headers: Record<string, string> = {
      accept: 'application/json, text/event-stream',
      'content-type': 'application/json',
      ...options.headers,
    }
    if (sessionId !== undefined) headers['mcp-session-id'] = sessionId
    if (protocolVersion !== undefined) headers['mcp-protocol-version'] = protocolVersion
    return headers
  }
  const post = async (body: JsonObject, headers: Record<string, string>): Promise<Response> => {
    try {
      return await fetch(url, {
        method: 'POST',
        headers: { ...base(), ...headers },
        body: JSON.stringify(body),
      })
    } catch (error) {
      const cause = (error as { cause?: { code?: string; message?: string } }).cause
      throw new TransportError(
        `Cannot reach ${url}: ${cause?.code ?? cause?.message ?? (error as Error).message}`,
      )
    }
  }
  return {
    async request(request, headers, traffic) {
      const response = await post(request as unknown as JsonObject, headers)
      sessionId ??= response.headers.get('mcp-session-id') ?? undefined
      const type = response.headers.get('content-type') ?? ''
      if (type.startsWith('text/event-stream')) return readStream(response, request, traffic, post)
      const text = await response.text()
      const message = parseJson(text)
      if (message === undefined || !isResponse(message)) {
        throw new TransportError(
          `${url} answered HTTP ${response.status} without a JSON-RPC response${text ? `: ${text.slice(0, 200)}` : ''}`,
        )
      }
      return message
    },
    async notify(message, headers) {
      const response = await post(message, headers)
      await response.body?.cancel()
    },
    setSession(id, version) {
      sessionId = id ?? sessionId
      protocolVersion = version
    },
    async close() {
      if (sessionId === undefined) return
      // Ending the session tells the server to let go of it; a server that cannot is no error of ours.
      await fetch(url, { method: 'DELETE', headers: base() }).then(
        (r) => r.body?.cancel(),
        () => {},
      )
    },
  }
}

async function readStream(
  response: Response,
  request: RpcRequest,
  traffic: RequestTraffic,
  post: (body: JsonObject, headers: Record<string, string>) => Promise<Response>,
): Promise<JsonObject> {
  let answer: JsonObject | undefined
  const pending: Promise<void>[] = []
  const parser = createParser({
    onEvent(event) {
      const message = parseJson(event.data)
      if (message === undefined) return
      if (typeof message.method === 'string' && message.id !== undefined) {
        pending.push(answerServer(message, traffic, (reply) => post(reply, {}).then((r) => r.body?.cancel())))
      } else if (typeof message.method === 'string') traffic.onNotification?.(message)
      else if (message.id === request.id) answer = message
    },
  })
  const decoder = new TextDecoder()
  const reader = response.body!.getReader()
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    parser.feed(decoder.decode(value, { stream: true }))
    if (answer !== undefined) {
      await reader.cancel()
      break
    }
  }
  await Promise.all(pending)
  if (answer === undefined) throw new TransportError('The stream ended before the response arrived.')
  return answer
}

/** Answers one server request: its result, or an error the server can read. */
export async function answerServer(
  message: JsonObject,
  traffic: RequestTraffic,
  send: (reply: JsonObject) => Promise<unknown>,
): Promise<void> {
  let reply: JsonObject
  try {
    if (traffic.onServerRequest === undefined)
      throw new Error(`This client does not answer ${String(message.method)}.`)
    reply = { jsonrpc: '2.0', id: message.id, result: await traffic.onServerRequest(message) }
  } catch (error) {
    reply = { jsonrpc: '2.0', id: message.id, error: { code: -32603, message: (error as Error).message } }
  }
  await send(reply)
}

function parseJson(text: string): JsonObject | undefined {
  try {
    const value: unknown = JSON.parse(text)
    return isObject(value) ? value : undefined
  } catch {
    return undefined
  }
}
