/**
 * @module outbound
 * Server-to-client requests of the handshake era (`elicitation/create`, `sampling/createMessage`,
 * `roots/list`): each gets a fresh id, waits for the client's response with a timeout, and gives
 * up when the call that sent it is cancelled. Responses are matched per session, never by id alone.
 */
import { TesseraError } from '../../errors.ts'
import type { JsonObject, JsonRpcResponseIn } from '../../protocol/jsonrpc/message.ts'
import { randomId } from '../../security/random.ts'
import { backgroundTimeout } from '../../timers.ts'

/** A request to the client got no usable answer: it timed out, was cancelled, or was refused. */
export class ClientRequestError extends TesseraError {
  override readonly name = 'ClientRequestError'

  constructor(
    message: string,
    readonly reason: 'timeout' | 'cancelled' | 'error' | 'shutdown',
    readonly error?: { code: number; message: string },
  ) {
    super('TESSERA_CLIENT_REQUEST_FAILED', message)
  }
}

interface Pending {
  resolve(result: JsonObject): void
  reject(error: ClientRequestError): void
  /** What an answering token must hold: the scopes of the target of the call that asked. */
  scopes: readonly string[]
}

export class OutboundRequests {
  readonly #pending = new Map<string, Pending>()

  /** Sends one request through `write` and resolves with the client's result. */
  send(
    sessionId: string,
    write: (message: JsonObject) => void,
    method: string,
    params: JsonObject | undefined,
    options: { timeoutMs: number; signal: AbortSignal; scopes: readonly string[] },
  ): Promise<JsonObject> {
    // Unguessable ids: with several instances an answer that reaches the wrong one must be lost,
    // never taken as the answer to another instance's question.
    const id = `s-${randomId(12)}`
    const key = `${sessionId}\u0000${id}`
    return new Promise<JsonObject>((resolve, reject) => {
      const done = () => {
        clearTimeout(timer)
        options.signal.removeEventListener('abort', onAbort)
        this.#pending.delete(key)
      }
      const onAbort = () => {
        done()
        reject(new ClientRequestError(`${method} was cancelled.`, 'cancelled'))
      }
      const timer = backgroundTimeout(() => {
        done()
        reject(new ClientRequestError(`${method} got no answer in time.`, 'timeout'))
      }, options.timeoutMs)
      if (options.signal.aborted) return onAbort()
      options.signal.addEventListener('abort', onAbort, { once: true })
      this.#pending.set(key, {
        scopes: options.scopes,
        resolve: (result) => {
          done()
          resolve(result)
        },
        reject: (error) => {
          done()
          reject(error)
        },
      })
      const message: JsonObject = { jsonrpc: '2.0', id, method }
      if (params !== undefined) message.params = params
      write(message)
    })
  }

  /**
   * The server is shutting down: every request still waiting for its client's answer gives up
   * now, so the call that sent it answers with a JSON-RPC error before its connection is cut.
   */
  abandonAll(): void {
    for (const entry of [...this.#pending.values()]) {
      entry.reject(
        new ClientRequestError('The server is shutting down; nothing more will be asked.', 'shutdown'),
      )
    }
  }

  /**
   * Routes a client's response, sent by a token holding `granted`, to the request waiting for
   * it; false when none waits here. A response from a token without every scope of the asking
   * call's target is dropped (the question keeps waiting for one that may answer it).
   */
  deliver(sessionId: string, response: JsonRpcResponseIn, granted: readonly string[] | undefined): boolean {
    const entry = this.#pending.get(`${sessionId}\u0000${String(response.id)}`)
    if (!entry) return false
    if (!entry.scopes.every((s) => granted?.includes(s))) return true
    if (response.error) {
      entry.reject(new ClientRequestError(`The client answered with an error.`, 'error', response.error))
    } else {
      entry.resolve((response.result ?? {}) as JsonObject)
    }
    return true
  }
}
