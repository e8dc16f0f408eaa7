/**
 * @module recent-mints
 * The states a codec minted most recently. The process that asked a question is usually the one
 * its answer comes back to, and opening the state would then decrypt (or check the MAC of) a token
 * this codec wrote, decode its claims and compute its bind tag again: the dearest steps of opening,
 * each starting an OpenSSL context on Node. A token that is, character for character, one this
 * codec minted under the same key needs none of them: its claims are the ones it wrote, and the
 * binding it was minted under is compared with the caller's instead of their HMACs.
 *
 * A token comes back attacker-controlled, so it is looked up by its last characters (the
 * authentication tag or MAC, which no caller can guess for a state it was not given), and a
 * candidate counts only when the whole token matches, compared in time that depends on the
 * lengths alone; so are the bindings, since the one kept is another caller's. Anything else is
 * opened the ordinary way.
 */
import type { StateKeys } from '../crypto.ts'

/** What a state was minted from. */
export interface MintedState {
  readonly keys: StateKeys
  readonly token: string
  /** The claims' JSON, as sealed or signed. */
  readonly claims: string
  readonly binding: string
}

/** How many of a token's last characters find it: its authenticator's, in either mode. */
const LOOKUP_CHARS = 22

export class RecentMints {
  readonly #minted = new Map<string, MintedState>()

  /** At most `max` states of at most `maxTokenLength` characters are kept, the oldest forgotten first. */
  constructor(
    readonly max: number,
    readonly maxTokenLength: number,
  ) {}

  /** Keeps a state just minted. */
  remember(minted: MintedState): void {
    if (minted.token.length > this.maxTokenLength) return
    if (this.#minted.size >= this.max) this.#minted.delete(this.#minted.keys().next().value as string)
    this.#minted.set(minted.token.slice(-LOOKUP_CHARS), minted)
  }

  /**
   * The state `token` was minted as under `keys`, or undefined: a token another process or codec
   * minted, one minted long ago, or one that differs anywhere. A recalled state is forgotten: an
   * answer comes back once, and a repeat is opened the ordinary way.
   */
  recall(keys: StateKeys, token: string): MintedState | undefined {
    const id = token.slice(-LOOKUP_CHARS)
    const minted = this.#minted.get(id)
    if (minted === undefined || minted.keys !== keys || !sameText(minted.token, token)) return undefined
    this.#minted.delete(id)
    return minted
  }
}

/** Whether two strings are equal, in time that depends on their lengths only. */
export function sameText(a: string, b: string): boolean {
  if (a.length !== b.length) return false
  let difference = 0
  for (let i = 0; i < a.length; i++) difference |= a.charCodeAt(i) ^ b.charCodeAt(i)
  return difference === 0
}
