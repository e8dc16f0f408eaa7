/**
 * @module channel
 * How a request travels: over HTTP (one POST per message, answers as JSON or SSE) or over a
 * child's stdin/stdout (one line per message). A channel delivers what belongs to a request
 * (its notifications, the server's questions, its response); the session above decides what to
 * send and how to answer.
 */
import type { JsonObject, RpcRequest } from './json-rpc.ts'

export interface RequestTraffic {
  /** A notification that came with the request (progress, log). */
  onNotification?(message: JsonObject): void
  /** A request from the server (2025-11-25): resolves with its result, rejects to refuse it. */
  onServerRequest?(message: JsonObject): Promise<JsonObject>
}

export interface Channel {
  /** Sends `request`, with `headers` when the channel has headers; resolves with the response message. */
  request(request: RpcRequest, headers: Record<string, string>, traffic: RequestTraffic): Promise<JsonObject>
  notify(message: JsonObject, headers: Record<string, string>): Promise<void>
  /** After initialize: the session the server opened, sent back on every later message. */
  setSession(id: string | undefined, protocolVersion: string): void
  close(): Promise<void>
}
