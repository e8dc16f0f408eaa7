/**
 * @module option-checks
 * The checks every factory runs on its options, so a bad one is refused with the same words
 * everywhere, when the thing is created: numbers in range, and no option the factory does not
 * know. A misspelled option is the dangerous kind of unknown one: the setting it meant silently
 * keeps its default (a body limit, a host allow-list, the scopes a server advertises), so it is
 * refused by name with the closest known name. A leaf: it imports nothing, every layer and every
 * package may use it (store and auth packages through `@tessera/core/ports`).
 */

/** `value` when it is a safe integer of at least 1; a RangeError naming the option otherwise. */
export function positiveInteger(value: number, name: string): number {
  if (!Number.isSafeInteger(value) || value < 1) throw new RangeError(`${name} must be a positive integer.`)
  return value
}

/** `value` when it is a safe integer of at least 0; a RangeError naming the option otherwise. */
export function nonNegativeInteger(value: number, name: string): number {
  if (!Number.isSafeInteger(value) || value < 0) throw new RangeError(`${name} must be an integer >= 0.`)
  return value
}

/**
 * Every name of an options type, each mapped to `true`. Written as a `const` object beside the
 * interface with `satisfies OptionNames<XOptions>`, it fails to compile when the interface gains
 * an option the list lacks, or the list keeps one the interface dropped, so the check and the
 * type cannot drift apart.
 */
export type OptionNames<T> = { readonly [K in keyof T]-?: true }

/** How `assertKnownOptions` checks one options object beyond its names: where it sits, whether it must be there. */
export interface KnownOptionsCheck {
  /** Where a nested options object sits (`health`, `dpop`): the dotted prefix of every name it reports. */
  path?: string
  /** Refuse `undefined` too (the options are not optional). */
  required?: boolean
}

/**
 * Refuses, with a TypeError that names it, any own key of `options` that is not in `known`:
 * `listen: unknown option 'maxBodySize' (did you mean 'maxBodyBytes'?).` A value that is not a
 * plain object (null, an array, a string) is refused too; `undefined` passes unless `required`.
 * `where` names the factory (`listen`, `Tool 'deploy'`).
 */
export function assertKnownOptions(
  options: unknown,
  known: Readonly<Record<string, true>>,
  where: string,
  check: KnownOptionsCheck = {},
): void {
  refuseUnknown(check, CHECK_NAMES, 'assertKnownOptions', '')
  if (options === undefined && !check.required) return
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw new TypeError(
      check.path === undefined
        ? `${where}: options must be an object.`
        : `${where}: ${check.path} must be an object.`,
    )
  }
  refuseUnknown(options, known, where, check.path === undefined ? '' : `${check.path}.`)
}

const CHECK_NAMES = {
  path: true,
  required: true,
} as const satisfies OptionNames<KnownOptionsCheck>

function refuseUnknown(
  options: object,
  known: Readonly<Record<string, true>>,
  where: string,
  prefix: string,
): void {
  for (const key of Object.keys(options)) {
    if (Object.hasOwn(known, key)) continue
    const closest = closestName(key, Object.keys(known))
    const hint = closest === undefined ? '' : ` (did you mean '${prefix}${closest}'?)`
    throw new TypeError(`${where}: unknown option '${prefix}${key}'${hint}.`)
  }
}

/**
 * The known name `name` most likely meant, or undefined when none is close: the same name in
 * another case; else the nearest within an edit distance of max(2, a third of the name's length),
 * swapped neighbours counting as one edit; else a known name that starts with it, or that it
 * starts with (at least 4 letters shared: `scopes` for `scopesSupported`). Ties go to the name
 * listed first.
 */
export function closestName(name: string, known: readonly string[]): string | undefined {
  const lower = name.toLowerCase()
  const sameCase = known.find((candidate) => candidate.toLowerCase() === lower)
  if (sameCase !== undefined) return sameCase
  const limit = Math.max(2, Math.ceil(name.length / 3))
  let best: string | undefined
  let bestDistance = limit + 1
  for (const candidate of known) {
    const distance = editDistance(lower, candidate.toLowerCase())
    if (distance < bestDistance) {
      best = candidate
      bestDistance = distance
    }
  }
  if (best !== undefined) return best
  let prefixed: string | undefined
  for (const candidate of known) {
    const other = candidate.toLowerCase()
    const [shorter, longer] = lower.length <= other.length ? [lower, other] : [other, lower]
    if (shorter.length < 4 || !longer.startsWith(shorter)) continue
    if (
      prefixed === undefined ||
      Math.abs(candidate.length - name.length) < Math.abs(prefixed.length - name.length)
    )
      prefixed = candidate
  }
  return prefixed
}

/**
 * Damerau-Levenshtein distance (optimal string alignment): insertions, deletions, substitutions
 * and swaps of two neighbouring characters each count one.
 */
export function editDistance(a: string, b: string): number {
  // Three rows of the table are enough: the swap looks two rows back.
  let before = new Array<number>(b.length + 1).fill(0)
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j)
  for (let i = 1; i <= a.length; i++) {
    const current = [i]
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1
      let value = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost)
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        value = Math.min(value, before[j - 2]! + 1)
      current.push(value)
    }
    before = previous
    previous = current
  }
  return previous[b.length]!
}
