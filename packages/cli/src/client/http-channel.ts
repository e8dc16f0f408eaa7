/**
 * @module http-channel
 * Streamable HTTP: each message is one POST; the answer is JSON, or an SSE stream carrying the
 * request's notifications, the server's questions (answered with POSTs of their own) and finally
 * the response. The session id a 2025-11-25 server hands out at initialize is kept and sent back.
 * Every way the exchange can fail becomes a TransportError of `http-failures.ts`.
 */
import { wireMappings } from '@tessera/core/protocol'
import { createParser } from 'eventsource-parser'
import type { Channel, RequestTraffic } from './channel.ts'
import {
  closedBeforeAnswer,
  DENIED_STATUSES,
  deniedAccess,
  fetchFailure,
  notJsonRpc,
  notServedHere,
} from './http-failures.ts'
import { isObject, isResponse, type JsonObject, type RpcRequest } from './json-rpc.ts'

export interface HttpChannelOptions {
  /** Sent with every request (`authorization`, say). */
  headers?: Record<string, string>
}

type Post = (body: JsonObject, headers: Record<string, string>) => Promise<Response>

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
  const post: Post = async (body, headers) => {
    try {
      return await fetch(url, {
        method: 'POST',
        headers: { ...base(), ...headers },
        body: JSON.stringify(body),
      })
    } catch (error) {
      throw fetchFailure(url, typeof body.method === 'string' ? body.method : 'the message', error)
    }
  }
  /** The body of an answer to `method`, or why there is none. */
  const bodyOf = async (response: Response, method: string): Promise<string> => {
    let text: string
    try {
      text = await response.text()
    } catch (error) {
      throw closedBeforeAnswer(url, method, error)
    }
    if (DENIED_STATUSES.has(response.status))
      throw deniedAccess(url, response, text, options.headers?.authorization)
    return text
  }
  return {
    async request(request, headers, traffic) {
      const response = await post(request, headers)
      sessionId ??= response.headers.get('mcp-session-id') ?? undefined
      const type = response.headers.get('content-type') ?? ''
      if (type.startsWith('text/event-stream') && !DENIED_STATUSES.has(response.status))
        return readStream(url, response, request, traffic, post)
      const text = await bodyOf(response, request.method)
      const message = parseJson(text)
      // An error the server could not tie to an id (a refusal before parsing) still answers this POST.
      if (message === undefined || !(isResponse(message) || isObject(message.error)))
        throw notJsonRpc(url, response, text)
      const unserved = notServedHere(url, response, message)
      if (unserved !== undefined) throw unserved
      return message
    },
    async notify(message, headers) {
      const response = await post(message, headers)
      if (DENIED_STATUSES.has(response.status)) await bodyOf(response, String(message.method))
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
  url: string,
  response: Response,
  request: RpcRequest,
  traffic: RequestTraffic,
  post: Post,
): Promise<JsonObject> {
  let answer: JsonObject | undefined
  // A failed POST of an answer must not go unhandled while the stream is still read.
  let unsent: unknown
  const pending: Promise<void>[] = []
  const parser = createParser({
    onEvent(event) {
      const message = parseJson(event.data)
      if (message === undefined) return
      if (typeof message.method === 'string' && message.id !== undefined) {
        const sent = answerServer(message, traffic, (reply) => post(reply, {}).then((r) => r.body?.cancel()))
        pending.push(
          sent.catch((error: unknown) => {
            unsent ??= error
          }),
        )
      } else if (typeof message.method === 'string') traffic.onNotification?.(message)
      else if (message.id === request.id) answer = message
    },
  })
  const decoder = new TextDecoder()
  const reader = response.body!.getReader()
  try {
    for (;;) {
      const { done, value } = await reader.read()
      if (done) break
      parser.feed(decoder.decode(value, { stream: true }))
      if (answer !== undefined) {
        await reader.cancel()
        break
      }
    }
  } catch (error) {
    await Promise.all(pending)
    throw closedBeforeAnswer(url, request.method, error)
  }
  await Promise.all(pending)
  if (answer !== undefined) return answer
  throw unsent ?? closedBeforeAnswer(url, request.method)
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
    reply = {
      jsonrpc: '2.0',
      id: message.id,
      error: { code: wireMappings.TESSERA_INTERNAL.jsonrpc, message: (error as Error).message },
    }
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
