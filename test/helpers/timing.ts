/**
 * @module timing
 * Waiting in tests: a plain sleep, and a gate a test opens at the moment it chooses.
 */

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms))
}

/** A promise with its resolver outside, for tools a test releases at a chosen moment. */
export function gate(): { promise: Promise<void>; open(): void } {
  let open!: () => void
  const promise = new Promise<void>((resolve) => {
    open = resolve
  })
  return { promise, open }
}
