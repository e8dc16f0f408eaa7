/**
 * @module test-client
 * `@tessera/core/testing`: a client of a server in the same process, without HTTP, for tests.
 * It speaks either era through the server's door exactly as a transport would (2026-07-28: each
 * request with its `_meta`; 2025-11-25: a session opened by `initialize`), answers the server's
 * questions from the test by key, and hands back the result, or rejects with the JSON-RPC error.
 */

import { assertKnownOptions, type OptionNames } from '../../option-checks.ts'
import type { JsonObject, JsonRpcId } from '../../protocol/jsonrpc/message.ts'
import type { ClientCapabilities } from '../../protocol/modern/capabilities.ts'
import type { CallToolResult, GetPromptResult, ReadResourceResult } from '../../protocol/modern/results.ts'
import {
  HANDSHAKE_VERSIONS,
  INPUT_KEY_META,
  MetaKey,
  MODERN_VERSION,
} from '../../protocol/modern/vocabulary.ts'
import type { AuthInfo } from '../../security/request-state/binding.ts'
import { doorOf, type Exchange, type McpServer, type ServerDoor } from '../../server/door.ts'

/** A question the server asked, as the test sees it. */
export interface AskedInput {
  /** The key the handler asked under. */
  key: string
  method: string
  params: JsonObject | undefined
}

/** How the test answers: a fixed answer per key, or a function of the question. */
export type Answers = Record<string, unknown> | ((input: AskedInput) => unknown)

/** How one call of a `TestClient` answers its handler's questions, and hears its notifications. */
export interface CallOptions {
  /** Answers to the questions the handler may ask, by key (`{ confirm: { action: 'accept', content } }`). */
  answer?: Answers
  /** Called with each notification the request sent (progress, log). */
  onNotification?: (notification: JsonObject) => void
}

/** What `createTestClient` is given: the era it speaks, what the client declares, and who calls. */
export interface TestClientOptions {
  /** `modern` (2026-07-28, default) or `handshake` (2025-11-25, in a session). */
  era?: 'modern' | 'handshake'
  /** What the client says it can do; default: form and URL elicitation, sampling and roots. */
  capabilities?: ClientCapabilities
  /**
   * Who is calling, as an authenticating transport would report it: what handlers read as
   * `ctx.auth`, what requestState and sessions are bound to, and the `scopes` a scoped tool,
   * prompt or resource is checked against (`{ subject: 'ada', scopes: ['ops:read'] }`).
   * Without it the caller is anonymous, holds no scope, and everything scoped is refused with a
   * `TestCallError` whose `data.requiredScopes` names what the call needs, as over HTTP.
   */
  auth?: AuthInfo
  /** How the client names itself (default `tessera-test-client`, version 1.0.0). */
  clientInfo?: { name: string; version: string }
}

const TEST_CLIENT_OPTION_NAMES = {
  era: true,
  capabilities: true,
  auth: true,
  clientInfo: true,
} as const satisfies OptionNames<TestClientOptions>
const CALL_OPTION_NAMES = { answer: true, onNotification: true } as const satisfies OptionNames<CallOptions>

/** A JSON-RPC error the server answered with. */
export class TestCallError extends Error {
  override readonly name = 'TestCallError'
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message)
  }
}

const ALL_CAPABILITIES: ClientCapabilities = { elicitation: { form: {}, url: {} }, sampling: {}, roots: {} }
/** The error code of a client that has no answer (an application-defined JSON-RPC code). */
const NO_ANSWER = 1

/**
 * A client of a server in this process (`createTestClient`): each call answers the server's
 * questions from the test, and resolves with the result, or rejects with a `TestCallError` when
 * the server answers with a JSON-RPC error.
 */
export interface TestClient {
  /**
   * Calls a tool; its `structuredContent` is typed `S`. A tool that threw, or returned output its
   * schema refuses, resolves with `isError: true`.
   */
  callTool<S = unknown>(
    name: string,
    args?: JsonObject,
    options?: CallOptions,
  ): Promise<CallToolResult & { structuredContent?: S }>
  /** Reads a resource by URI. */
  readResource(uri: string, options?: CallOptions): Promise<ReadResourceResult>
  /** Gets a prompt, with its arguments as strings. */
  getPrompt(name: string, args?: Record<string, string>, options?: CallOptions): Promise<GetPromptResult>
  /** Any method; resolves with its result. */
  request(method: string, params?: JsonObject, options?: CallOptions): Promise<JsonObject>
  /** Ends the session (handshake era); the server itself stays open. */
  close(): Promise<void>
}

/**
 * A client of `server` in this process. It calls as `options.auth` (anonymous without it), so a
 * test of a scoped tool says who calls and with which scopes:
 * `createTestClient(app, { auth: { subject: 'ada', scopes: ['ops:read'] } })`. It starts no
 * transport: the server's warnings about serving (an ephemeral key, records kept in memory) are
 * not said.
 * @example
 * ```ts
 * import { createServer, elicitForm } from '@tessera/core'
 * import { createTestClient } from '@tessera/core/testing'
 * import { expect } from 'vitest'
 * import { z } from 'zod'
 *
 * const app = createServer({ name: 'ops', version: '1.0.0' })
 * app.tool(
 *   'rollback',
 *   {
 *     description: 'Rolls a service back',
 *     input: z.object({ service: z.string() }),
 *     output: z.object({ rolledBack: z.boolean() }),
 *   },
 *   async ({ service }, ctx) => {
 *     const answer = await ctx.ask('confirm', elicitForm({
 *       message: `Roll ${service} back?`,
 *       schema: z.object({ ok: z.boolean() }),
 *     }))
 *     const rolledBack = answer.action === 'accept' && answer.content.ok
 *     return { content: [{ type: 'text', text: rolledBack ? 'Rolled back.' : 'Kept.' }], structuredContent: { rolledBack } }
 *   },
 * )
 *
 * const client = createTestClient(app)
 * const result = await client.callTool('rollback', { service: 'api' }, {
 *   answer: { confirm: { action: 'accept', content: { ok: true } } },
 * })
 * expect(result.structuredContent).toEqual({ rolledBack: true })
 * ```
 */
export function createTestClient(server: McpServer, options: TestClientOptions = {}): TestClient {
  const door = doorOf(server, 'createTestClient')
  assertKnownOptions(options, TEST_CLIENT_OPTION_NAMES, 'createTestClient')
  const settings = {
    capabilities: options.capabilities ?? ALL_CAPABILITIES,
    auth: options.auth,
    clientInfo: options.clientInfo ?? { name: 'tessera-test-client', version: '1.0.0' },
  }
  const era = options.era ?? 'modern'
  if (era !== 'modern' && era !== 'handshake') throw new TypeError(`era must be 'modern' or 'handshake'.`)
  const call = era === 'modern' ? modernCaller(door, settings) : handshakeCaller(door, settings)
  // A call's options are checked like any others; the refusal is the call's rejection.
  const send = (where: string, method: string, params: JsonObject, o: CallOptions | undefined) => {
    try {
      assertKnownOptions(o, CALL_OPTION_NAMES, where)
    } catch (error) {
      return Promise.reject(error)
    }
    return call.request(method, params, o)
  }
  return {
    callTool: (name, args = {}, o) => send('callTool', 'tools/call', { name, arguments: args }, o) as never,
    readResource: (uri, o) => send('readResource', 'resources/read', { uri }, o) as never,
    getPrompt: (name, args = {}, o) =>
      send('getPrompt', 'prompts/get', { name, arguments: args }, o) as never,
    request: (method, params = {}, o) => send('request', method, params, o),
    close: () => call.close(),
  }
}

interface Settings {
  capabilities: ClientCapabilities
  auth: AuthInfo | undefined
  clientInfo: { name: string; version: string }
}

interface Caller {
  request(method: string, params: JsonObject, options?: CallOptions): Promise<JsonObject>
  close(): Promise<void>
}

let nextId = 1

/** 2026-07-28: every request stands alone; an `input_required` result is answered and re-sent. */
function modernCaller(door: ServerDoor, settings: Settings): Caller {
  const send = async (method: string, params: JsonObject, options: CallOptions | undefined) => {
    const meta = {
      ...(params._meta as JsonObject | undefined),
      ...progressOptIn(options),
      [MetaKey.protocolVersion]: MODERN_VERSION,
      [MetaKey.clientCapabilities]: settings.capabilities,
      [MetaKey.clientInfo]: settings.clientInfo,
    }
    const controller = new AbortController()
    const exchange: Exchange = {
      headers: undefined,
      auth: settings.auth,
      signal: controller.signal,
      send: (message) => options?.onNotification?.(message),
    }
    const reply = await door.modern(
      { jsonrpc: '2.0', id: nextId++, method, params: { ...params, _meta: meta } },
      exchange,
    )
    if (reply.kind !== 'response')
      throw new TypeError(`${method} answers with a stream; the test client reads results only.`)
    return outcome(reply.body)
  }
  return {
    async request(method, params, options) {
      let result = await send(method, params, options)
      while (result.resultType === 'input_required') {
        const asked = (result.inputRequests ?? {}) as Record<string, { method: string; params?: JsonObject }>
        const responses: JsonObject = {}
        for (const [key, request] of Object.entries(asked)) {
          responses[key] = answerFor(options?.answer, { key, method: request.method, params: request.params })
        }
        result = await send(
          method,
          { ...params, inputResponses: responses, requestState: result.requestState },
          options,
        )
      }
      return result
    },
    close: async () => {},
  }
}

/** 2025-11-25: one session for the client's life; the server's questions arrive as requests. */
function handshakeCaller(door: ServerDoor, settings: Settings): Caller {
  if (door.handshake === undefined)
    throw new TypeError('This server serves 2026-07-28 only (handshake: false).')
  const waiting = new Map<
    JsonRpcId,
    { resolve(message: JsonObject): void; reject(error: Error): void; options?: CallOptions }
  >()
  const connection = door.connect((written) => {
    const message = (typeof written === 'string' ? JSON.parse(written) : written) as JsonObject
    const id = message.id as JsonRpcId | undefined
    if (typeof message.method === 'string' && id !== undefined) return answerServer(message, id)
    if (typeof message.method === 'string') {
      for (const entry of waiting.values()) entry.options?.onNotification?.(message)
      return
    }
    if (id !== undefined) waiting.get(id)?.resolve(message)
  }, settings.auth)
  // A question belongs to the call in flight (with several at once, to the latest).
  const answerServer = (message: JsonObject, id: JsonRpcId) => {
    const params = message.params as JsonObject | undefined
    const key = String((params?._meta as JsonObject | undefined)?.[INPUT_KEY_META] ?? '')
    const caller = [...waiting.values()].at(-1)
    try {
      const result = answerFor(caller?.options?.answer, { key, method: String(message.method), params })
      connection.receive({ kind: 'response', message: { jsonrpc: '2.0', id, result: result as JsonObject } })
    } catch (error) {
      // The test is told at once; the server hears a refusal instead of waiting for its timeout.
      caller?.reject(error as Error)
      const refusal = { code: NO_ANSWER, message: (error as Error).message }
      connection.receive({ kind: 'response', message: { jsonrpc: '2.0', id, error: refusal } })
    }
  }
  const exchange = (method: string, params: JsonObject, options?: CallOptions): Promise<JsonObject> => {
    const id = `t-${nextId++}`
    const answered = new Promise<JsonObject>((resolve, reject) =>
      waiting.set(id, { resolve, reject, options }),
    )
    connection.receive({ kind: 'request', message: { jsonrpc: '2.0', id, method, params } })
    return answered.finally(() => waiting.delete(id))
  }
  const ready = exchange('initialize', {
    protocolVersion: HANDSHAKE_VERSIONS[0]!,
    capabilities: settings.capabilities,
    clientInfo: settings.clientInfo,
  }).then((message) => {
    outcome(message)
    connection.receive({
      kind: 'notification',
      message: { jsonrpc: '2.0', method: 'notifications/initialized' },
    })
  })
  return {
    async request(method, params, options) {
      await ready
      const meta = { ...(params._meta as JsonObject | undefined), ...progressOptIn(options) }
      return outcome(await exchange(method, { ...params, _meta: meta }, options))
    },
    close: () => connection.close(),
  }
}

/** A request that wants its notifications asks for progress with a token. */
function progressOptIn(options: CallOptions | undefined): JsonObject {
  return options?.onNotification === undefined ? {} : { progressToken: `progress-${nextId++}` }
}

function answerFor(answers: Answers | undefined, input: AskedInput): unknown {
  if (typeof answers === 'function') return answers(input)
  if (answers !== undefined && Object.hasOwn(answers, input.key)) return answers[input.key]
  throw new Error(`The server asked '${input.key}' (${input.method}) and the test gave no answer for it.`)
}

/** The result of a response, or its error thrown as a TestCallError. */
function outcome(message: JsonObject): JsonObject {
  const error = message.error as { code: number; message: string; data?: unknown } | undefined
  if (error !== undefined) throw new TestCallError(error.code, error.message, error.data)
  return message.result as JsonObject
}
