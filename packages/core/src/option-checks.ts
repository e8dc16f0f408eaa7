/**
 * @module option-checks
 * The checks every factory runs on its numeric options, so a bad value is refused with the same
 * words everywhere, when the thing is created. A leaf: it imports nothing, every layer may use it.
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
