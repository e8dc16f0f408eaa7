/**
 * @module with-fields
 * `{ ...base, ...fields }`, written so that V8 keeps one hidden class per shape. In optimized code
 * Node 20's V8 gives an object literal that starts with a spread and then adds a field a hidden
 * class of its own on every run: twenty times slower than a plain literal, a new class in the old
 * generation for every request, and the object kept alive through it until a full collection.
 * A literal that starts with `__proto__` takes the ordinary path; `Object.prototype` is the
 * prototype the literal would have had anyway, and an own `__proto__` key of `base` (JSON.parse
 * makes one) is still copied as a plain property, never taken as a prototype.
 */

/** `base` with `fields` added or replaced; for each key the type `fields` gives it. */
export type WithFields<T, F> = T extends unknown ? Omit<T, keyof F> & F : never

/**
 * A new object with `base`'s own enumerable properties and then `fields`'s, exactly as
 * `{ ...base, ...fields }` makes it (`base` may be undefined).
 * @example
 * ```ts
 * import { withFields } from './with-fields.ts'
 *
 * withFields({ contents: [] }, { ttlMs: 0 }) // { contents: [], ttlMs: 0 }
 * ```
 */
export function withFields<T extends object | undefined, F extends object>(
  base: T,
  fields: F,
): WithFields<T, F>
export function withFields(base: object | undefined, fields: object): object {
  return { __proto__: Object.prototype, ...base, ...fields }
}
