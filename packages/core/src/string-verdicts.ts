/**
 * @module string-verdicts
 * Verdicts on the strings clients send again on every request (a `Host`, an `Accept`): each is
 * decided once, a bounded number are remembered, whatever a client invents, and the latest is
 * checked first by comparing it, not hashing it. A header value is a new string each time, and
 * hashing one to look it up costs more than comparing it with the value before.
 */
export class StringVerdicts<V> {
  readonly #known = new Map<string, V>()
  #lastKey: string | undefined = undefined
  #lastVerdict: V | undefined = undefined

  /** `decide` gives a string's verdict; at most `max` verdicts are remembered. */
  constructor(
    readonly max: number,
    readonly decide: (value: string) => V,
  ) {}

  /** The verdict on `value`, decided at most once while it is remembered. */
  of(value: string): V {
    if (value === this.#lastKey) return this.#lastVerdict as V
    let verdict = this.#known.get(value)
    if (verdict === undefined && !this.#known.has(value)) {
      verdict = this.decide(value)
      if (this.#known.size < this.max) this.#known.set(value, verdict)
    }
    this.#lastKey = value
    this.#lastVerdict = verdict
    return verdict as V
  }
}
