/**
 * @module serve-stdio
 * stdio for 2026-07-28: one JSON-RPC message per line on stdin and stdout, logs never on stdout.
 * In-flight requests are tracked by id so `notifications/cancelled` can stop them (and end a
 * listen subscription); on EOF the server lets in-flight work finish, then resolves.
 */
import { createInterface } from 'node:readline'
import type { Readable, Writable } from 'node:stream'
import { ErrorCode } from '../../protocol/jsonrpc/error-codes.ts'
import type { JsonObject, JsonRpcId, JsonRpcRequest } from '../../protocol/jsonrpc/message.ts'
import { parseMessage } from '../../protocol/jsonrpc/parse.ts'
import { hasModernClaim } from '../../protocol/modern/envelope.ts'
import type { McpServer } from '../../server/create-server.ts'
import type { LegacyExchange } from '../../server/exchange.ts'
import { encodeReply, type Reply } from '../../server/pipeline/reply.ts'
import { StdioLegacy } from './stdio-legacy.ts'

export interface StdioOptions {
  input?: Readable
  output?: Writable
  /** Longest accepted line in bytes (default 4 MiB); longer lines are answered -32600. */
  maxLineBytes?: number
}

interface InFlight {
  controller: AbortController
  closers: Array<() => void>
  /** A listen subscription stays in flight after its request resolved. */
  streaming?: boolean
  /** Set once the response is written: nothing more may be sent for this request. */
  answered?: boolean
}

export function serveStdio(server: McpServer, options?: StdioOptions): Promise<void> {
  const input = options?.input ?? process.stdin
  const output = options?.output ?? process.stdout
  const maxLine = options?.maxLineBytes ?? 4 * 1024 * 1024
  const inflight = new Map<string, InFlight>()
  const pending = new Set<Promise<void>>()
  // A string is a message already serialized by the pipeline; anything else is encoded here.
  const write = (message: unknown) => {
    output.write(`${typeof message === 'string' ? message : JSON.stringify(message)}\n`)
  }
  server.serving = true
  const legacy = new StdioLegacy(server, write)
  const lines = createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY })
  lines.on('line', (line) => {
    if (line.trim() === '') return
    if (Buffer.byteLength(line) > maxLine) {
      write({
        jsonrpc: '2.0',
        error: { code: ErrorCode.InvalidRequest, message: 'Invalid request: the line is too long.' },
      })
      return
    }
    const task = handleLine(server, line, inflight, write, legacy)
    pending.add(task)
    task.finally(() => pending.delete(task))
  })
  return new Promise((resolve) => {
    lines.once('close', () => {
      // Subscriptions end with the input; ordinary requests still answer before we resolve.
      for (const flight of inflight.values())
        if (flight.streaming) for (const close of flight.closers) close()
      legacy.close()
      Promise.allSettled([...pending]).then(() => resolve())
    })
  })
}

async function handleLine(
  server: McpServer,
  line: string,
  inflight: Map<string, InFlight>,
  write: (message: unknown) => void,
  legacy: StdioLegacy,
): Promise<void> {
  const parsed = parseMessage(line)
  if (!parsed.ok) {
    write(
      parsed.id === undefined
        ? { jsonrpc: '2.0', error: parsed.error }
        : { jsonrpc: '2.0', id: parsed.id, error: parsed.error },
    )
    return
  }
  const inbound = parsed.value
  if (inbound.kind === 'notification') {
    if (inbound.message.method === 'notifications/cancelled') cancel(inflight, inbound.message.params)
    if (inbound.message.method === 'notifications/initialized') legacy.initialized()
    return
  }
  if (inbound.kind === 'response') {
    legacy.deliver(inbound.message)
    return
  }
  const request = inbound.message
  if (hasModernClaim(request.params)) return serveRequest(server, request, inflight, write, undefined)
  // initialize switches this process into the handshake era; modern lines are still served as modern.
  if (request.method === 'initialize') return legacy.initialize(request)
  if (legacy.session !== undefined) return serveRequest(server, request, inflight, write, legacy)
  write({
    jsonrpc: '2.0',
    id: request.id,
    error: { code: ErrorCode.InvalidParams, message: 'Invalid params: _meta is required.' },
  })
}

async function serveRequest(
  server: McpServer,
  request: JsonRpcRequest,
  inflight: Map<string, InFlight>,
  write: (message: unknown) => void,
  legacy: StdioLegacy | undefined,
): Promise<void> {
  const key = idKey(request.id)
  const flight: InFlight = { controller: new AbortController(), closers: [] }
  flight.closers.push(() => flight.controller.abort(new Error('cancelled')))
  inflight.set(key, flight)
  const exchange: LegacyExchange = {
    headers: undefined,
    auth: undefined,
    signal: flight.controller.signal,
    notify(method, params) {
      if (!flight.controller.signal.aborted && !flight.answered) write({ jsonrpc: '2.0', method, params })
    },
    sendRequest(method, params) {
      if (!legacy) return Promise.reject(new Error('no session'))
      return legacy.sendRequest(method, params, flight.controller.signal)
    },
  }
  try {
    const reply = legacy
      ? await legacy.serve(request, exchange)
      : await server.handleModern(request, exchange)
    if (reply.kind === 'stream') return openStream(reply, flight, inflight, key, write)
    if (reply.kind === 'response' && !flight.controller.signal.aborted) write(encodeReply(reply))
    flight.answered = true
  } finally {
    if (inflight.get(key) === flight && !flight.streaming) inflight.delete(key)
  }
}

function openStream(
  reply: Extract<Reply, { kind: 'stream' }>,
  flight: InFlight,
  inflight: Map<string, InFlight>,
  key: string,
  write: (message: unknown) => void,
): void {
  flight.streaming = true
  let ended = false
  reply.open({
    send(message: JsonObject) {
      if (!ended && !flight.controller.signal.aborted) write(message)
    },
    end(final?: JsonObject) {
      if (ended) return
      ended = true
      if (final !== undefined && !flight.controller.signal.aborted) write(final)
      inflight.delete(key)
    },
    onClose(callback) {
      flight.closers.push(callback)
    },
  })
}

function cancel(inflight: Map<string, InFlight>, params: JsonObject | undefined): void {
  const id = params?.requestId
  if (typeof id !== 'string' && typeof id !== 'number') return
  const flight = inflight.get(idKey(id))
  if (!flight) return
  inflight.delete(idKey(id))
  for (const close of flight.closers) close()
}

function idKey(id: JsonRpcId): string {
  return `${typeof id}:${id}`
}
