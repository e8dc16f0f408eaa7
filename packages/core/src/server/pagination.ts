/**
 * @module pagination
 * Opaque list cursors. A cursor names an offset and carries a check digest, so a forged or
 * stale-format cursor is -32602 (never a crash, never a silently wrong page).
 */

import { sha256Base64url } from '#crypto'
import { TesseraError } from '../errors.ts'
import type { JsonObject } from '../protocol/jsonrpc/message.ts'

/** One page of a list, and the cursor of the next. */
export interface Page<T> {
  /** At most a page size of items, in list order. */
  items: T[]
  /** The offset of the page's first item in the list. */
  start: number
  /** The cursor of the next page; undefined on the last. */
  nextCursor: string | undefined
}

/**
 * The page of `items` that `cursor` (as the client sent it; undefined or '' for the first page)
 * starts, of at most `pageSize` items, with the cursor of the next page when there is one. `list`
 * names the list, so a cursor of one list is refused by another. A cursor that was not made here
 * for `list` is -32602.
 */
export function paginate<T>(list: string, items: readonly T[], cursor: unknown, pageSize: number): Page<T> {
  const start = cursor === undefined || cursor === '' ? 0 : decodeCursor(list, cursor)
  if (start > items.length) throw invalidCursor()
  const end = Math.min(start + pageSize, items.length)
  return {
    items: items.slice(start, end),
    start,
    nextCursor: end < items.length ? encodeCursor(list, end) : undefined,
  }
}

/**
 * A list method's result for `page`: its items under `field`, `nextCursor` when a page follows,
 * and the cache hint (`ttlMs`, `cacheScope`) when one is given.
 */
export function pageResult(
  field: string,
  page: Page<unknown>,
  hint?: { readonly ttlMs: number; readonly cacheScope: string },
): JsonObject {
  const result: JsonObject = { [field]: page.items }
  if (page.nextCursor !== undefined) result.nextCursor = page.nextCursor
  if (hint !== undefined) {
    result.ttlMs = hint.ttlMs
    result.cacheScope = hint.cacheScope
  }
  return result
}

function encodeCursor(list: string, offset: number): string {
  return `${offset.toString(36)}.${check(list, offset)}`
}

function decodeCursor(list: string, cursor: unknown): number {
  if (typeof cursor !== 'string' || cursor.length > 64) throw invalidCursor()
  const match = /^([0-9a-z]{1,10})\.([A-Za-z0-9_-]{8})$/.exec(cursor)
  if (!match) throw invalidCursor()
  const offset = Number.parseInt(match[1]!, 36)
  if (!Number.isSafeInteger(offset) || check(list, offset) !== match[2]) throw invalidCursor()
  return offset
}

/** Not a secret: it only makes cursors self-checking and list-specific. */
function check(list: string, offset: number): string {
  return sha256Base64url(`tessera-cursor:${list}:${offset}`).slice(0, 8)
}

function invalidCursor(): TesseraError {
  return new TesseraError('TESSERA_INVALID_PARAMS', 'Invalid params: invalid cursor.')
}
