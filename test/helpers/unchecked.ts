/**
 * @module unchecked
 * Values of the wrong type, passed as JavaScript code (or a caller with other typings) passes
 * them: the tests of the checks a server makes at runtime, which typed code cannot reach.
 */

/**
 * `value`, typed as whatever its place expects, so a test can hand a function what the compiler
 * would refuse.
 *
 * @example
 * expect(() => createKeyRing(unchecked(undefined))).toThrow(TypeError)
 */
export function unchecked<T>(value: unknown): T {
  return value as T
}
