/**
 * @module session
 * One conversation with a server, in whichever era it speaks. 2026-07-28: `server/discover`
 * first, then every request stands alone with its `_meta` envelope and headers, and an
 * `input_required` result is answered and re-sent with its `requestState`, and a task (the server
 * offers the extension, so the client declares it) is followed to its end. 2025-11-25:
 * `initialize` opens a session, and the server's questions arrive as requests of their own.
 * `auto` tries 2026-07-28 and falls back to `initialize` when the server does not speak it.
 */
import {
  encodeHeaderValue,
  HANDSHAKE_VERSIONS,
  MetaKey,
  MODERN_VERSION,
  TASKS_EXTENSION,
} from '@tessera/core/protocol'
import type { Channel, RequestTraffic } from './channel.ts'
import { followTask } from './follow-task.ts'
import { freshId, isObject, type JsonObject, RpcError, resultOf, TransportError } from './json-rpc.ts'

export type Era = 'modern' | 'handshake'

/** The key under which a Tessera server names each question it sends in a 2025-11-25 session. */
const INPUT_KEY_META = 'dev.tessera/inputKey'
/** Rounds one call may take before the client gives up on a server that keeps asking. */
const MAX_ROUNDS = 32

/** A question from the server: an elicitation, a sampling request, a roots request. */
export interface Asked {
  /** The key the server asked under (2026-07-28, or a Tessera server in a session). */
  key: string | undefined
  method: string
  params: JsonObject
}

export interface RequestHandlers {
  onProgress?(progress: { progress: number; total?: number; message?: string }): void
  onLog?(params: JsonObject): void
  /** Answers the server's questions; without it, a question fails the request. */
  ask?(asked: Asked): Promise<JsonObject>
  /** Extra headers for this request (the `Mcp-Param-*` mirrors of a tool call). */
  headers?: Record<string, string>
  /** Stops waiting on a task (the task is asked to stop). */
  signal?: AbortSignal
}

export interface ServerSummary {
  era: Era
  protocolVersion: string
  serverInfo: { name?: string; version?: string; title?: string } | undefined
  capabilities: JsonObject
  instructions: string | undefined
}

export interface McpSession {
  readonly server: ServerSummary
  /** Sends `method` and resolves with its final result; rejects with an RpcError or a TransportError. */
  request(method: string, params?: JsonObject, handlers?: RequestHandlers): Promise<JsonObject>
  close(): Promise<void>
}

export interface SessionOptions {
  era: Era | 'auto'
  clientInfo: { name: string; version: string }
  capabilities: JsonObject
}

export async function openSession(channel: Channel, options: SessionOptions): Promise<McpSession> {
  if (options.era === 'modern') return modernSession(channel, options, await discover(channel, options))
  if (options.era === 'handshake') return handshakeSession(channel, options)
  let discovered: JsonObject
  try {
    discovered = await discover(channel, options)
  } catch (error) {
    // A server that predates 2026-07-28 refuses the envelope or the method: it speaks the handshake.
    // One that cannot be reached, was cut off or refuses the caller would fail the handshake too.
    if (error instanceof RpcError || (error instanceof TransportError && error.reason === 'protocol'))
      return handshakeSession(channel, options)
    throw error
  }
  return modernSession(channel, options, discovered)
}

function discover(channel: Channel, options: SessionOptions): Promise<JsonObject> {
  return modernRequest(channel, options, 'server/discover', {}, {}).then((result) => {
    const versions = result.supportedVersions
    if (!Array.isArray(versions) || !versions.includes(MODERN_VERSION))
      throw new TransportError(
        `The server does not offer ${MODERN_VERSION}: leave out --era modern, and auto speaks the 2025-11-25 handshake.`,
      )
    return result
  })
}

function modernSession(channel: Channel, given: SessionOptions, discovered: JsonObject): McpSession {
  const meta = isObject(discovered._meta) ? discovered._meta : {}
  const offered = isObject(discovered.capabilities) ? discovered.capabilities : {}
  // Tasks are declared only to a server that offers them: then a long call comes back as a task.
  const options = offersTasks(offered) ? withTasks(given) : given
  return {
    server: {
      era: 'modern',
      protocolVersion: MODERN_VERSION,
      serverInfo: isObject(meta[MetaKey.serverInfo]) ? (meta[MetaKey.serverInfo] as never) : undefined,
      capabilities: isObject(discovered.capabilities) ? discovered.capabilities : {},
      instructions: typeof discovered.instructions === 'string' ? discovered.instructions : undefined,
    },
    async request(method, params = {}, handlers = {}) {
      let result = await modernRequest(channel, options, method, params, handlers)
      for (let round = 1; result.resultType === 'input_required'; round++) {
        if (round > MAX_ROUNDS)
          throw new TransportError(`The server asked ${MAX_ROUNDS} rounds in a row; giving up.`)
        const asked = isObject(result.inputRequests) ? result.inputRequests : {}
        const responses: JsonObject = {}
        for (const [key, request] of Object.entries(asked)) {
          const { method: askedMethod, params: askedParams } = request as {
            method?: unknown
            params?: unknown
          }
          if (handlers.ask === undefined)
            throw new TransportError(`The server asks '${key}' and nothing answers it.`)
          responses[key] = await handlers.ask({
            key,
            method: String(askedMethod),
            params: isObject(askedParams) ? askedParams : {},
          })
        }
        const retry = { ...params, inputResponses: responses, requestState: result.requestState }
        result = await modernRequest(channel, options, method, retry, handlers)
      }
      if (result.resultType === 'task') {
        const send = (m: string, p: JsonObject) => modernRequest(channel, options, m, p, {})
        return followTask(send, result, handlers, handlers.signal)
      }
      return result
    },
    close: () => channel.close(),
  }
}

let progressTokens = 1

/** The methods whose name (or URI, or task id) the `Mcp-Name` header mirrors. */
const NAMED = new Set([
  'tools/call',
  'prompts/get',
  'resources/read',
  'tasks/get',
  'tasks/update',
  'tasks/cancel',
])

function offersTasks(capabilities: JsonObject): boolean {
  return isObject(capabilities.extensions) && isObject(capabilities.extensions[TASKS_EXTENSION])
}

function withTasks(options: SessionOptions): SessionOptions {
  const extensions = isObject(options.capabilities.extensions) ? options.capabilities.extensions : {}
  return {
    ...options,
    capabilities: { ...options.capabilities, extensions: { ...extensions, [TASKS_EXTENSION]: {} } },
  }
}

async function modernRequest(
  channel: Channel,
  options: SessionOptions,
  method: string,
  params: JsonObject,
  handlers: RequestHandlers,
): Promise<JsonObject> {
  const meta: JsonObject = {
    ...(isObject(params._meta) ? params._meta : {}),
    [MetaKey.protocolVersion]: MODERN_VERSION,
    [MetaKey.clientCapabilities]: options.capabilities,
    [MetaKey.clientInfo]: options.clientInfo,
  }
  if (handlers.onProgress) meta.progressToken = `p-${progressTokens++}`
  const headers: Record<string, string> = {
    'mcp-protocol-version': MODERN_VERSION,
    'mcp-method': method,
    ...handlers.headers,
  }
  const name =
    method === 'resources/read' ? params.uri : method.startsWith('tasks/') ? params.taskId : params.name
  if (typeof name === 'string' && NAMED.has(method)) headers['mcp-name'] = encodeHeaderValue(name)
  const response = await channel.request(
    { jsonrpc: '2.0', id: freshId(), method, params: { ...params, _meta: meta } },
    headers,
    traffic(handlers),
  )
  return resultOf(response)
}

async function handshakeSession(channel: Channel, options: SessionOptions): Promise<McpSession> {
  const init = resultOf(
    await channel.request(
      {
        jsonrpc: '2.0',
        id: freshId(),
        method: 'initialize',
        params: {
          protocolVersion: HANDSHAKE_VERSIONS[0]!,
          capabilities: options.capabilities,
          clientInfo: options.clientInfo,
        },
      },
      {},
      {},
    ),
  )
  const protocolVersion = String(init.protocolVersion)
  channel.setSession(undefined, protocolVersion)
  await channel.notify({ jsonrpc: '2.0', method: 'notifications/initialized' }, {})
  return {
    server: {
      era: 'handshake',
      protocolVersion,
      serverInfo: isObject(init.serverInfo) ? (init.serverInfo as never) : undefined,
      capabilities: isObject(init.capabilities) ? init.capabilities : {},
      instructions: typeof init.instructions === 'string' ? init.instructions : undefined,
    },
    async request(method, params = {}, handlers = {}) {
      const meta: JsonObject = isObject(params._meta) ? { ...params._meta } : {}
      if (handlers.onProgress) meta.progressToken = `p-${progressTokens++}`
      const full = Object.keys(meta).length > 0 ? { ...params, _meta: meta } : params
      // The server hears a refusal when a question cannot be answered; the caller hears why.
      let unanswered: unknown
      const ask = handlers.ask
      const guarded: RequestHandlers = {
        ...handlers,
        ask:
          ask &&
          ((asked) =>
            ask(asked).catch((error: unknown) => {
              unanswered ??= error
              throw error
            })),
      }
      const response = await channel.request(
        { jsonrpc: '2.0', id: freshId(), method, params: full },
        {},
        traffic(guarded),
      )
      if (unanswered !== undefined) throw unanswered
      return resultOf(response)
    },
    close: () => channel.close(),
  }
}

/** What a request's own traffic means to the handlers: progress, logs, and questions. */
function traffic(handlers: RequestHandlers): RequestTraffic {
  return {
    onNotification(message) {
      const params = isObject(message.params) ? message.params : {}
      if (message.method === 'notifications/progress' && typeof params.progress === 'number') {
        handlers.onProgress?.({
          progress: params.progress,
          total: typeof params.total === 'number' ? params.total : undefined,
          message: typeof params.message === 'string' ? params.message : undefined,
        })
      } else if (message.method === 'notifications/message') handlers.onLog?.(params)
    },
    async onServerRequest(message) {
      if (handlers.ask === undefined) throw new Error(`Nothing answers ${String(message.method)}.`)
      const params = isObject(message.params) ? message.params : {}
      const key = isObject(params._meta) ? params._meta[INPUT_KEY_META] : undefined
      return handlers.ask({
        key: typeof key === 'string' ? key : undefined,
        method: String(message.method),
        params,
      })
    },
  }
}
