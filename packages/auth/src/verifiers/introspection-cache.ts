/**
 * @module introspection-cache
 * Remembers introspection answers for a while, so a client sending the same token on every
 * request costs one round trip to the authorization server, not one per request. Entries are keyed
 * by the SHA-256 of the token: the cache never holds a token a heap dump could leak. The size is
 * bounded and the oldest entry goes first, so a flood of distinct tokens costs memory up to the
 * bound and no more.
 */
import { base64url } from 'jose'

/** The key under which a token's answer is kept: its SHA-256, base64url. */
export async function tokenKey(token: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(token))
  return base64url.encode(new Uint8Array(digest))
}

interface Entry<V> {
  value: V
  /** ms since epoch, by the cache's clock. */
  expiresAt: number
}

export interface ExpiringCache<V> {
  get(key: string): V | undefined
  /** Keeps `value` until `expiresAt` (ms since epoch); a time not in the future keeps nothing. */
  set(key: string, value: V, expiresAt: number): void
  readonly size: number
}

/** A cache of at most `maxEntries` entries, each dropped once `now()` reaches its expiry. */
export function expiringCache<V>(maxEntries: number, now: () => number): ExpiringCache<V> {
  // A Map iterates in insertion order: its first key is the oldest entry.
  const entries = new Map<string, Entry<V>>()
  return {
    get(key) {
      const entry = entries.get(key)
      if (entry === undefined) return undefined
      if (now() >= entry.expiresAt) {
        entries.delete(key)
        return undefined
      }
      return entry.value
    },
    set(key, value, expiresAt) {
      entries.delete(key)
      if (expiresAt <= now()) return
      entries.set(key, { value, expiresAt })
      while (entries.size > maxEntries) {
        const oldest = entries.keys().next()
        if (oldest.done) break
        entries.delete(oldest.value)
      }
    },
    get size() {
      return entries.size
    },
  }
}
