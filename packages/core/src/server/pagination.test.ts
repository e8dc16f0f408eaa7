import { describe, expect, it } from 'vitest'
import { TesseraError } from '../errors.ts'
import { paginate } from './pagination.ts'

const items = ['a', 'b', 'c', 'd', 'e']

function walk(
  list: string,
  all: readonly string[],
  pageSize: number,
): { pages: string[][]; cursors: string[] } {
  const pages: string[][] = []
  const cursors: string[] = []
  let cursor: string | undefined
  do {
    const page = paginate(list, all, cursor, pageSize)
    pages.push(page.items)
    cursor = page.nextCursor
    if (cursor !== undefined) cursors.push(cursor)
  } while (cursor !== undefined && pages.length < 100)
  return { pages, cursors }
}

function expectInvalidCursor(fn: () => unknown): void {
  try {
    fn()
  } catch (error) {
    expect(error).toBeInstanceOf(TesseraError)
    expect(error).toMatchObject({
      code: 'TESSERA_INVALID_PARAMS',
      jsonrpcCode: -32602,
      message: 'Invalid params: invalid cursor.',
    })
    return
  }
  throw new Error('expected an invalid cursor')
}

describe('paginate', () => {
  it('walksEveryItemOnceInOrder', () => {
    const { pages, cursors } = walk('tools', items, 2)
    expect(pages).toEqual([['a', 'b'], ['c', 'd'], ['e']])
    expect(cursors).toHaveLength(2)
  })

  it('returnsOnePageWithoutACursorWhenEverythingFits', () => {
    expect(paginate('tools', items, undefined, 5)).toEqual({ items, start: 0, nextCursor: undefined })
    expect(paginate('tools', items, undefined, 100)).toEqual({ items, start: 0, nextCursor: undefined })
    expect(paginate('tools', [], undefined, 2)).toEqual({ items: [], start: 0, nextCursor: undefined })
  })

  it('treatsAnEmptyCursorAsTheFirstPage', () => {
    expect(paginate('tools', items, '', 2).items).toEqual(['a', 'b'])
  })

  it('makesOpaqueUrlSafeCursors', () => {
    const { cursors } = walk('tools', items, 1)
    for (const cursor of cursors) expect(cursor).toMatch(/^[A-Za-z0-9._-]+$/)
    expect(new Set(cursors).size).toBe(cursors.length)
  })

  it('refusesACursorOfAnotherList', () => {
    const cursor = paginate('tools', items, undefined, 2).nextCursor
    expectInvalidCursor(() => paginate('prompts', items, cursor, 2))
  })

  it('refusesForgedAndMalformedCursors', () => {
    const cursor = paginate('tools', items, undefined, 2).nextCursor!
    const [offset, check] = cursor.split('.') as [string, string]
    for (const bad of [
      'forged',
      `${offset}.${check.slice(0, -1)}${check.endsWith('A') ? 'B' : 'A'}`,
      `3.${check}`,
      `${offset}.${check}.extra`,
      `${offset}`,
      `-1.${check}`,
      'x'.repeat(65),
      42,
      null,
      {},
    ]) {
      if (bad === cursor) continue
      expectInvalidCursor(() => paginate('tools', items, bad, 2))
    }
  })

  it('refusesACursorBeyondAListThatShrank', () => {
    const { cursors } = walk('tools', items, 2)
    const last = cursors.at(-1)!
    expectInvalidCursor(() => paginate('tools', ['a', 'b'], last, 2))
    // A cursor exactly at the new end gives an empty last page rather than an error.
    expect(paginate('tools', ['a', 'b'], cursors[0], 2)).toEqual({
      items: [],
      start: 2,
      nextCursor: undefined,
    })
  })

  it('keepsPagesStableWhenThePageSizeChangesBetweenCalls', () => {
    const cursor = paginate('tools', items, undefined, 2).nextCursor
    expect(paginate('tools', items, cursor, 3).items).toEqual(['c', 'd', 'e'])
  })
})
