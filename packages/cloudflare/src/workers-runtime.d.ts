/**
 * The few parts of the Workers runtime this package uses, typed here so the package builds without
 * `@cloudflare/workers-types` (whose globals clash with Node's and the DOM's). A Worker project has
 * the full types from `wrangler types` or `@cloudflare/workers-types`; these match them.
 */
declare module 'cloudflare:workers' {
  /** The base class of a Durable Object whose methods are called over RPC. */
  export abstract class DurableObject<Env = unknown> {
    protected ctx: DurableObjectState
    protected env: Env
    constructor(ctx: DurableObjectState, env: Env)
  }

  export interface DurableObjectState {
    readonly storage: DurableObjectStorage
    acceptWebSocket(socket: WebSocket, tags?: string[]): void
    getWebSockets(tag?: string): WebSocket[]
  }

  export interface DurableObjectStorage {
    readonly sql: SqlStorage
    transactionSync<T>(body: () => T): T
  }

  export interface SqlStorage {
    exec<Row extends Record<string, SqlValue> = Record<string, SqlValue>>(
      query: string,
      ...bindings: SqlValue[]
    ): SqlCursor<Row>
  }

  export type SqlValue = string | number | null | ArrayBuffer

  export interface SqlCursor<Row> {
    toArray(): Row[]
    one(): Row
    readonly rowsWritten: number
  }
}
