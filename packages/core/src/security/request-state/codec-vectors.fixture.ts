/**
 * @module codec-vectors.fixture
 * The requestState wire format, pinned: states sealed and signed under fixed keys, a fixed
 * binding and a fixed time (`codec-vectors.json`, written once by `makeStateVectors`), and what
 * opening each must give: its payload, or the one reason it is refused. Any implementation of the
 * codec, on any runtime, must open every accepted vector and refuse every other for its reason;
 * `checkStateVectors` says which do not.
 */
import { createRequestStateCodec, type StateMode } from './codec.ts'
import type { StateKey } from './key-ring.ts'

/** One state and what opening it at `at`, with `binding`, under `keys`, must give. */
export interface StateVector {
  readonly name: string
  readonly mode: StateMode
  readonly token: string
  readonly binding: string
  /** Epoch milliseconds at which it is opened. */
  readonly at: number
  /** The payload it opens to, or undefined when it is refused. */
  readonly payload?: unknown
  /** Why it is refused. */
  readonly refused?: string
}

export interface StateVectors {
  readonly keys: readonly StateKey[]
  readonly ttlSeconds: number
  readonly vectors: readonly StateVector[]
}

const KEYS: readonly StateKey[] = [
  { id: 'vector-new', secret: 'a fixed secret for the requestState test vectors, new' },
  { id: 'vector-old', secret: 'a fixed secret for the requestState test vectors, old' },
]
const BINDING = 'tools/call rollback {"service":"api"} principal:ana'
const ISSUED_AT = 1_796_300_000_000
const TTL_SECONDS = 600
const PAYLOAD = { m: { r: 1, q: [['confirm', 'digest']], g: [] }, note: 'ünïcödé ✓' }

/** A copy of `token` with the character at `index` replaced (a byte of what it encodes changes). */
function changed(token: string, index: number): string {
  const at = index < 0 ? token.length + index : index
  return token.slice(0, at) + (token[at] === 'A' ? 'B' : 'A') + token.slice(at + 1)
}

/** Seals and signs the vectors with this implementation; run once, and whenever the format changes on purpose. */
export async function makeStateVectors(): Promise<StateVectors> {
  const minted = (mode: StateMode, keys: readonly StateKey[]) =>
    createRequestStateCodec({ keys, mode, ttlSeconds: TTL_SECONDS, clock: () => ISSUED_AT }).mint(
      PAYLOAD,
      BINDING,
    )
  const opening = ISSUED_AT + 1_000
  const vectors: StateVector[] = []
  for (const mode of ['sealed', 'signed'] as const) {
    const token = await minted(mode, KEYS)
    const byOldKey = await minted(mode, [KEYS[1]!])
    const accepted = { mode, binding: BINDING, at: opening }
    vectors.push(
      { name: `${mode}: opens`, token, ...accepted, payload: PAYLOAD },
      {
        name: `${mode}: sealed by an older key of the ring opens`,
        token: byOldKey,
        ...accepted,
        payload: PAYLOAD,
      },
      {
        name: `${mode}: one changed byte`,
        token: changed(token, Math.floor(token.length / 2)),
        ...accepted,
        refused: 'mac',
      },
      {
        name: `${mode}: another call's binding`,
        token,
        mode,
        binding: `${BINDING} `,
        at: opening,
        refused: 'binding',
      },
      {
        name: `${mode}: past its lifetime`,
        token,
        mode,
        binding: BINDING,
        at: ISSUED_AT + TTL_SECONDS * 1000 + 1,
        refused: 'expired',
      },
      {
        name: `${mode}: a key the ring does not hold`,
        token: token.replace('vector-new', 'vector-gone'),
        ...accepted,
        refused: 'unknown-key',
      },
      {
        name: `${mode}: cut short`,
        token: token.slice(0, token.length - 4),
        ...accepted,
        refused: 'malformed',
      },
    )
  }
  vectors.push({
    name: 'not a state',
    mode: 'sealed',
    token: 'tss1.',
    binding: BINDING,
    at: opening,
    refused: 'malformed',
  })
  return { keys: KEYS, ttlSeconds: TTL_SECONDS, vectors }
}

/** What this runtime's codec makes of each vector: the names of those it gets wrong, with what it got. */
export async function checkStateVectors(vectors: StateVectors): Promise<string[]> {
  const wrong: string[] = []
  for (const vector of vectors.vectors) {
    const codec = createRequestStateCodec({
      keys: vectors.keys,
      mode: vector.mode,
      ttlSeconds: vectors.ttlSeconds,
      clock: () => vector.at,
    })
    const opened = await codec.open(vector.token, vector.binding)
    const got = opened.ok ? JSON.stringify(opened.payload) : `refused: ${opened.reason}`
    const expected =
      vector.refused === undefined ? JSON.stringify(vector.payload) : `refused: ${vector.refused}`
    if (got !== expected) wrong.push(`${vector.name}: expected ${expected}, got ${got}`)
  }
  return wrong
}
