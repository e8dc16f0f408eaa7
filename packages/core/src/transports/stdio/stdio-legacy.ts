/**
 * @module stdio-legacy
 * The handshake era on stdio: the process is the session. `initialize` opens it, requests after
 * that are served by the legacy pipeline, the server's own requests go out on stdout and their
 * responses come back on stdin, and list changes are pushed while the session lives.
 */
import { ErrorCode } from '../../protocol/jsonrpc/error-codes.ts'
import type { JsonObject, JsonRpcRequest, JsonRpcResponseIn } from '../../protocol/jsonrpc/message.ts'
import type { McpServer } from '../../server/create-server.ts'
import type { LegacyExchange } from '../../server/exchange.ts'
import { newSession } from '../../server/legacy/initialize.ts'
import { OutboundRequests } from '../../server/legacy/outbound.ts'
import { serveLegacy } from '../../server/legacy/serve-legacy.ts'
import { sessionNotificationFor } from '../../server/legacy/session-notifications.ts'
import {
  type LegacySession,
  memorySessionStore,
  type SessionStore,
} from '../../server/legacy/session-store.ts'
import type { Reply } from '../../server/pipeline/reply.ts'
import { toTesseraError } from '../../server/pipeline/reply.ts'

const STDIO_SESSION = 'stdio'

export class StdioLegacy {
  session: LegacySession | undefined
  private readonly sessions: SessionStore = memorySessionStore({
    maxSessions: 1,
    idleMs: Number.MAX_SAFE_INTEGER,
  })
  private readonly outbound = new OutboundRequests()
  private unsubscribe: (() => void) | undefined
  private ready: Promise<unknown> = Promise.resolve()

  constructor(
    private readonly server: McpServer,
    private readonly write: (message: unknown) => void,
  ) {}

  async initialize(request: JsonRpcRequest): Promise<void> {
    if (!this.server.core.handshake) {
      this.write({
        jsonrpc: '2.0',
        id: request.id,
        error: {
          code: ErrorCode.UnsupportedProtocolVersion,
          message: 'Unsupported protocol version: this server speaks 2026-07-28 only.',
          data: {
            supported: this.server.core.versions.modern,
            requested: String(request.params?.protocolVersion ?? ''),
          },
        },
      })
      return
    }
    try {
      // Synchronous up to here: lines after initialize must already see the session.
      const opened = newSession(this.server.core, request.params, 'anonymous')
      opened.session.id = STDIO_SESSION
      this.session = opened.session
      this.ready = this.sessions.delete(STDIO_SESSION).then(() => this.sessions.create(opened.session))
      await this.ready
      this.listen()
      this.write({ jsonrpc: '2.0', id: request.id, result: opened.result })
    } catch (error) {
      const fault = toTesseraError(error, () => {})
      this.write({
        jsonrpc: '2.0',
        id: request.id,
        error: { code: fault.jsonrpcCode, message: fault.message },
      })
    }
  }

  initialized(): void {
    if (this.session) this.session.initialized = true
  }

  async serve(request: JsonRpcRequest, exchange: LegacyExchange): Promise<Reply> {
    await this.ready
    const session = (await this.sessions.get(STDIO_SESSION)) ?? this.session!
    return serveLegacy(this.server.core, request, session, this.sessions, exchange)
  }

  sendRequest(method: string, params: JsonObject | undefined, signal: AbortSignal): Promise<JsonObject> {
    const timeoutMs = this.server.core.handshake?.requestTimeoutMs ?? 300_000
    return this.outbound.send(STDIO_SESSION, (m) => this.write(m), method, params, { timeoutMs, signal })
  }

  deliver(response: JsonRpcResponseIn): void {
    this.outbound.deliver(STDIO_SESSION, response)
  }

  close(): void {
    this.unsubscribe?.()
  }

  private listen(): void {
    this.unsubscribe?.()
    this.unsubscribe = this.server.core.bus.subscribe((event) => {
      void sessionNotificationFor(this.server.core, this.sessions, STDIO_SESSION, event).then((message) => {
        if (message) this.write(message)
      })
    })
  }
}
