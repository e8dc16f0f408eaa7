/**
 * @module round-state
 * Everything one round of a multi round-trip call knows: the answers that arrived with this
 * request, the answers recorded in earlier rounds (carried in the sealed state, because clients
 * only echo the last round), and which questions were asked last round. A recorded answer is
 * pinned to its key and to a digest of its question, so a reworded question asks again and a
 * reordered handler still finds each answer under its own key.
 */

import { sha256Base64url } from '#crypto'
import type { CarriedSpan } from '../../observation/carried-span.ts'
import type { InputRequest } from '../../protocol/modern/input-requests.ts'
import { canonicalJson } from '../../security/request-state/canonical-json.ts'
import { RecentVerdicts } from '../../string-verdicts.ts'
import { type Answer, isRefusal, readAnswer } from './answers.ts'
import type { AskSignal } from './ask-signal.ts'
import { formTexts } from './input-requests.ts'

/**
 * An answer as a sealed state or a task record carries it, in short fields: the key it was asked
 * under, a digest of its question, and the validated answer. A task store keeps it as it is.
 */
export interface RecordedAnswer {
  /** The key the handler asked under. */
  k: string
  /** Digest of the question. */
  d: string
  /** The validated wire answer. */
  a: unknown
}

/** The part of a sealed state that belongs to the multi round-trip machinery. */
export interface RoundPayload {
  /** Round number of the state (1 = minted by the first round). */
  r: number
  /** Questions asked by the round that minted the state: key and question digest. */
  q: Array<[string, string]>
  /** Answers gathered in earlier rounds, in the order the handler consumed them. */
  g: RecordedAnswer[]
  /** The first round's span (trace id, span id), so every later round's span links to it. */
  s?: CarriedSpan
  /**
   * For a single-use call: the replay store's epoch when this state was sealed. Its answer is
   * claimed on that epoch only, so a store that lost its records since refuses it.
   */
  e?: string
}

export type AnswerLookup = { found: true; answer: Answer } | { found: false }

export class RoundState {
  // Built on first use: most calls never ask, and this object is made for every one of them.
  /** Answers consumed by this run, in order; the next state carries them. */
  #consumed: Map<string, RecordedAnswer> | undefined
  #refused: Set<string> | undefined
  #recordedByKey: Map<string, RecordedAnswer> | undefined
  #askedByKey: Map<string, string> | undefined
  /** The digests of the questions this run looked up, for the state its ask mints. */
  #digestsByKey: Map<string, { request: InputRequest; digest: string }> | undefined
  /** The ask this run threw, until the pipeline takes it: set after a normal return, it was swallowed. */
  pendingAsk: AskSignal | undefined
  /** The answers sent with this request, by key. */
  readonly #incoming: Record<string, unknown> | undefined

  constructor(
    incoming: Record<string, unknown> | undefined,
    readonly payload: RoundPayload | undefined,
    /** Nonce of the verified state this request carried, if any: the single-use key. */
    readonly nonce: string | undefined,
  ) {
    this.#incoming = incoming
  }

  static empty(): RoundState {
    return new RoundState(undefined, undefined, undefined)
  }

  get round(): number {
    return this.payload?.r ?? 0
  }

  /** Whether the answer to `key` in this call was a decline or a cancel. */
  isRefused(key: string): boolean {
    return this.#refused?.has(key) === true
  }

  /** Finds the answer to `request` under `key`: recorded in an earlier round, or sent with this request. */
  lookup(key: string, request: InputRequest): AnswerLookup {
    const digest = questionDigest(request)
    this.#digestsByKey ??= new Map()
    this.#digestsByKey.set(key, { request, digest })
    const earlier = this.#recorded.get(key)
    let raw: unknown
    if (earlier !== undefined && earlier.d === digest) {
      raw = earlier.a
    } else {
      raw = this.#incoming?.[key]
      if (raw === undefined) return { found: false }
      // With a state, only answers to the questions that state asked count; without one (first
      // round) an answer can only be the client volunteering it, like an argument.
      if (this.#asked !== undefined && this.#asked.get(key) !== digest) return { found: false }
    }
    const read = readAnswer(request, raw)
    // An unreadable answer is no answer: the question is asked again.
    if (read === undefined) return { found: false }
    this.#consumed ??= new Map()
    this.#consumed.set(key, { k: key, d: digest, a: read.record })
    if (isRefusal(read.answer)) {
      this.#refused ??= new Set()
      this.#refused.add(key)
    }
    return { found: true, answer: read.answer }
  }

  /**
   * The digest of the question asked under `key`: the one its lookup computed when it is the same
   * question object (an ask looks up every question it throws), otherwise computed now.
   */
  digestOf(key: string, request: InputRequest): string {
    const looked = this.#digestsByKey?.get(key)
    return looked?.request === request ? looked.digest : questionDigest(request)
  }

  /** What the next state records: the answers this run consumed, in order. */
  gathered(): RecordedAnswer[] {
    return this.#consumed ? [...this.#consumed.values()] : []
  }

  /** Every answer this call holds now: those of earlier rounds, replaced by any consumed in this run. */
  carried(): RecordedAnswer[] {
    const all = new Map(this.#recorded)
    for (const [key, entry] of this.#consumed ?? []) all.set(key, entry)
    return [...all.values()]
  }

  get #recorded(): Map<string, RecordedAnswer> {
    this.#recordedByKey ??= new Map((this.payload?.g ?? []).map((entry) => [entry.k, entry]))
    return this.#recordedByKey
  }

  get #asked(): Map<string, string> | undefined {
    if (this.payload === undefined) return undefined
    this.#askedByKey ??= new Map(this.payload.q)
    return this.#askedByKey
  }
}

/**
 * Every question is digested at least twice (its ask, then the answer's run, which asks it again
 * to find its answer), so a digest is remembered by the question's canonical text: a SHA-256
 * costs more than writing that text and looking it up. The text is the whole question, so two
 * questions share a digest only when they would have computed the same one. At most 512 texts of
 * at most 4 KiB are kept, the oldest forgotten first.
 */
const digestsByText = new RecentVerdicts(512, 4096, (text) => sha256Base64url(text).slice(0, 22))

export function questionDigest(request: InputRequest): string {
  return digestsByText.of(canonicalJson(request, formTexts))
}

export function isRoundPayload(value: unknown): value is RoundPayload {
  if (typeof value !== 'object' || value === null) return false
  const p = value as Partial<RoundPayload>
  return (
    Number.isInteger(p.r) &&
    Array.isArray(p.q) &&
    Array.isArray(p.g) &&
    (p.e === undefined || typeof p.e === 'string')
  )
}
