/**
 * @module state-service
 * One codec and one binding for every requestState the server mints: the framework's own (answers
 * gathered across rounds) and a handler's. Refusals are announced with their precise reason to the
 * observer only (the logs, the metrics, the dev console); the client always gets the same -32602.
 * Counts per key id tell an operator when an old key has stopped arriving and can leave the ring.
 */

import { TesseraError } from '../../errors.ts'
import type { Observer } from '../../observation/observer.ts'
import { refusalLabel, type StateRefusalReason } from '../../observation/state-refusals.ts'
import type { OptionNames } from '../../option-checks.ts'
import type { JsonObject } from '../../protocol/jsonrpc/message.ts'
import {
  type AuthInfo,
  type Binder,
  originatingRequestBinder,
  unboundBinder,
} from '../../security/request-state/binding.ts'
import {
  checkCodecSettings,
  createRequestStateCodec,
  type OpenedState,
  type RequestStateCodec,
  type StateMode,
} from '../../security/request-state/codec.ts'
import { generateStateKey, type StateKey } from '../../security/request-state/key-ring.ts'

/**
 * How the server seals and binds its requestStates (`ServerOptions.requestState`): the key ring,
 * sealed or signed, their lifetime, and what each state is bound to. Without `keys` an ephemeral
 * key serves this process only.
 */
export interface RequestStateOptions {
  /** Key ring: the first key seals, every key opens. Omit for an ephemeral key (one process only). */
  keys?: readonly StateKey[]
  /** `sealed` (AES-256-GCM, default): the client reads nothing. `signed` (HMAC-SHA256): readable. */
  mode?: StateMode
  /** Lifetime of a state, and of a single-use record (default 600). */
  ttlSeconds?: number
  /** The server identity states are bound to; replicas share it (default: the server name). */
  identity?: string
  /** Replace the default binder (principal + method + target + argument digest), or `false` to bind only the identity. */
  binder?: Binder | false
  /** Epoch milliseconds; tests fix it. */
  clock?: () => number
}

export const REQUEST_STATE_OPTION_NAMES = {
  keys: true,
  mode: true,
  ttlSeconds: true,
  identity: true,
  binder: true,
  clock: true,
} as const satisfies OptionNames<RequestStateOptions>

/**
 * `store-epoch`: the state verified, but the replay store it would be claimed in lost its
 * records since it was sealed (it is on another epoch), so a replay could not be told apart.
 */

export interface StateMetrics {
  openedByKey: Record<string, number>
  refused: Record<string, number>
  minted: number
}

export const INVALID_STATE_MESSAGE = 'Invalid params: the requestState is invalid or expired.'

export class StateService {
  readonly ttlSeconds: number
  readonly ephemeral: boolean
  /** Whether the codec holds a key to seal with (an ephemeral one counts: it serves one process). */
  readonly keysLoaded: boolean
  /** Made on first use when its key is ephemeral: a random key is drawn then, not at construction. */
  #built: RequestStateCodec | undefined
  readonly #build: () => RequestStateCodec
  readonly #binder: Binder
  readonly #identity: string
  readonly #metrics: StateMetrics = { openedByKey: {}, refused: {}, minted: 0 }

  readonly #observer: Observer

  constructor(options: RequestStateOptions | undefined, serverName: string, observer: Observer) {
    this.#observer = observer
    this.ephemeral = options?.keys === undefined || options.keys.length === 0
    const settings = {
      mode: options?.mode ?? 'sealed',
      ttlSeconds: options?.ttlSeconds ?? 600,
      clock: options?.clock,
      maxTokenLength: 65_536,
    } as const
    this.ttlSeconds = checkCodecSettings(settings).ttlSeconds
    const keys = options?.keys
    if (this.ephemeral || keys === undefined) {
      this.#build = () => createRequestStateCodec({ keys: [generateStateKey('ephemeral')], ...settings })
    } else {
      // Given keys are checked now, so a bad key fails createServer rather than a request.
      const codec = createRequestStateCodec({ keys, ...settings })
      this.#build = () => codec
      this.#built = codec
    }
    this.keysLoaded = true
    this.#binder = options?.binder === false ? unboundBinder : (options?.binder ?? originatingRequestBinder())
    this.#identity = options?.identity ?? serverName
  }

  get #codec(): RequestStateCodec {
    this.#built ??= this.#build()
    return this.#built
  }

  /** The binding of a call, or a refusal when the caller has no stable identity to bind to. */
  bind(method: string, params: JsonObject | undefined, auth: AuthInfo | undefined): string {
    const result = this.#binder({ audience: this.#identity, method, params, auth })
    if (!result.ok) {
      this.refuse(result.reason, method)
      throw new TesseraError('TESSERA_INVALID_STATE', INVALID_STATE_MESSAGE)
    }
    return result.binding
  }

  mint(payload: unknown, binding: string): Promise<string> {
    this.#metrics.minted++
    return this.#observer.phase('requestState seal', () => this.#codec.mint(payload, binding))
  }

  /** Opens a state or throws the one fixed -32602; the reason goes to logs and metrics only. */
  async open<T>(
    token: unknown,
    binding: string,
    method: string,
  ): Promise<Extract<OpenedState<T>, { ok: true }>> {
    if (typeof token !== 'string') {
      this.refuse('malformed', method)
      throw new TesseraError('TESSERA_INVALID_STATE', INVALID_STATE_MESSAGE)
    }
    const opened = await this.#observer.phase('requestState open', () => this.#codec.open<T>(token, binding))
    if (!opened.ok) {
      this.refuse(opened.reason, method)
      throw new TesseraError('TESSERA_INVALID_STATE', INVALID_STATE_MESSAGE)
    }
    this.#metrics.openedByKey[opened.keyId] = (this.#metrics.openedByKey[opened.keyId] ?? 0) + 1
    if (this.#observer.wants('state-opened'))
      this.#observer.announce({ step: 'state-opened', keyId: opened.keyId })
    return opened
  }

  snapshot(): StateMetrics {
    return structuredClone(this.#metrics)
  }

  /** Counts, reports and logs a refusal; the caller throws the one fixed -32602. */
  refuse(reason: StateRefusalReason, method: string): void {
    // A binder the application wrote may return any reason: the counts keep to the fixed set.
    const label = refusalLabel(reason)
    this.#metrics.refused[label] = (this.#metrics.refused[label] ?? 0) + 1
    if (this.#observer.wants('state-refused'))
      this.#observer.announce({ step: 'state-refused', reason, method })
  }

  /**
   * What a state this server minted says, for the development console only: opened without
   * counting, and undefined when it does not open.
   */
  async peek(
    token: string,
    binding: string,
  ): Promise<Extract<OpenedState<unknown>, { ok: true }> | undefined> {
    const opened = await this.#codec.open(token, binding)
    return opened.ok ? opened : undefined
  }
}
