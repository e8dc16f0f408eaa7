/**
 * @module string-verdicts
 * Verdicts on strings that come back, decided once while remembered, within a bound.
 * `StringVerdicts`: the strings clients send again on every request (a `Host`, an `Accept`): each
 * is decided once, a bounded number are remembered, whatever a client invents, and the latest is
 * checked first by comparing it, not hashing it. A header value is a new string each time, and
 * hashing one to look it up costs more than comparing it with the value before.
 * `RecentVerdicts`: strings that keep changing while the recent ones come back.
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

/**
 * Verdicts on strings that keep changing while the recent ones come back (a question a handler
 * asks, then asks again on the answer's run to find its answer): the `max` decided most recently
 * are remembered, the oldest forgotten first, and a string longer than `maxLength` is decided
 * each time, so what is kept stays bounded in bytes as well as in number.
 */
export class RecentVerdicts<V> {
  readonly #known = new Map<string, V>()
  #lastKey: string | undefined = undefined
  #lastVerdict: V | undefined = undefined

  /** `decide` gives a string's verdict; at most `max` verdicts on strings of at most `maxLength` are kept. */
  constructor(
    readonly max: number,
    readonly maxLength: number,
    readonly decide: (value: string) => V,
  ) {}

  /**
   * The verdict on `value`, decided again only once it has been forgotten. The latest is compared
   * first: hashing a new string of a few hundred characters to look it up costs several thousand
   * instructions, comparing it a few hundred.
   */
  of(value: string): V {
    if (value === this.#lastKey) return this.#lastVerdict as V
    if (value.length > this.maxLength) return this.decide(value)
    let verdict = this.#known.get(value)
    if (verdict === undefined && !this.#known.has(value)) {
      verdict = this.decide(value)
      this.#remember(value, verdict)
    }
    this.#lastKey = value
    this.#lastVerdict = verdict
    return verdict as V
  }

  #remember(value: string, verdict: V): void {
    if (this.#known.size >= this.max) this.#known.delete(this.#known.keys().next().value as string)
    this.#known.set(value, verdict)
  }
}
