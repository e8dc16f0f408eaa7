/**
 * @module round-state
 * Everything one round of a multi round-trip call knows: the answers that arrived with this
 * request, the answers recorded in earlier rounds (carried in the sealed state, because clients
 * only echo the last round), which questions were asked last round, and the handler's own state.
 * A recorded answer is pinned to a digest of its question, so a reworded question asks again.
 */
import { createHash } from 'node:crypto'
import { canonicalJson } from '../../security/request-state/canonical-json.ts'
import { type Answer, isRefusal, readAnswer } from './answers.ts'
import type { InputRequest } from './input-requests.ts'

export interface RecordedAnswer {
  k: string
  d: string
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
  /** The handler's own state. */
  h?: unknown
}

export type AnswerLookup = { found: true; answer: Answer } | { found: false; unreadable: boolean }

export class RoundState {
  // Built on first use: most calls never ask, and this object is made for every one of them.
  /** Answers consumed by this run, in order; the next state carries them. */
  private consumed: Map<string, RecordedAnswer> | undefined
  private refused: Set<string> | undefined
  private position = 0
  private recordedByKey: Map<string, RecordedAnswer> | undefined
  private askedByKey: Map<string, string> | undefined

  constructor(
    private readonly incoming: Record<string, unknown> | undefined,
    readonly payload: RoundPayload | undefined,
    /** Nonce of the verified state this request carried, if any: the single-use key. */
    readonly nonce: string | undefined,
  ) {}

  private get recorded(): Map<string, RecordedAnswer> {
    this.recordedByKey ??= new Map((this.payload?.g ?? []).map((entry) => [entry.k, entry]))
    return this.recordedByKey
  }

  private get asked(): Map<string, string> | undefined {
    if (this.payload === undefined) return undefined
    this.askedByKey ??= new Map(this.payload.q)
    return this.askedByKey
  }

  /** Whether the answer to `key` in this call was a decline or a cancel. */
  isRefused(key: string): boolean {
    return this.refused?.has(key) === true
  }

  static empty(): RoundState {
    return new RoundState(undefined, undefined, undefined)
  }

  get round(): number {
    return this.payload?.r ?? 0
  }

  get hasState(): boolean {
    return this.payload !== undefined
  }

  get handlerState(): unknown {
    return this.payload?.h
  }

  /** The next positional key of the await style (`ask-1`, `ask-2`, …): asks must run in a fixed order. */
  nextKey(): string {
    this.position += 1
    return `ask-${this.position}`
  }

  /** Finds the answer to `request` under `key`: recorded in an earlier round, or sent with this request. */
  lookup(key: string, request: InputRequest): AnswerLookup {
    const digest = questionDigest(request)
    const earlier = this.recorded.get(key)
    let raw: unknown
    if (earlier !== undefined && earlier.d === digest) {
      raw = earlier.a
    } else {
      raw = this.incoming?.[key]
      if (raw === undefined) return { found: false, unreadable: false }
      // With a state, only answers to the questions that state asked count; without one (first
      // round) an answer can only be the client volunteering it, like an argument.
      if (this.asked !== undefined && this.asked.get(key) !== digest)
        return { found: false, unreadable: false }
    }
    const answer = readAnswer(request, raw)
    if (answer === undefined) return { found: false, unreadable: true }
    this.consumed ??= new Map()
    this.consumed.set(key, { k: key, d: digest, a: answer })
    if (isRefusal(answer)) {
      this.refused ??= new Set()
      this.refused.add(key)
    }
    return { found: true, answer }
  }

  /** What the next state records: earlier answers still valid plus those consumed now, in order. */
  gathered(): RecordedAnswer[] {
    return this.consumed ? [...this.consumed.values()] : []
  }
}

export function questionDigest(request: InputRequest): string {
  return createHash('sha256').update(canonicalJson(request)).digest('base64url').slice(0, 22)
}
