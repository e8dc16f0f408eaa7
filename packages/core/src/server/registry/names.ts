/**
 * @module names
 * Name rules shared by tools and prompts: 1-128 characters of `[A-Za-z0-9_.-]` (2026-07-28 SHOULD),
 * enforced at registration so a client never has to drop what we advertise.
 */
const NAME = /^[A-Za-z0-9_.-]{1,128}$/

export function assertName(kind: string, name: string): void {
  if (typeof name !== 'string' || !NAME.test(name)) {
    throw new TypeError(`${kind} name '${String(name)}' must be 1-128 characters of A-Z a-z 0-9 _ . -`)
  }
}
