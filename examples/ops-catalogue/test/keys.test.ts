/**
 * @module keys.test
 * The demo's key file: created on the first start with mode 0600, read as it is on the next.
 * Concurrent creation and malformed files are the key file's own tests, in core.
 */
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { ensureStateKeys } from '../src/keys.ts'

const dir = mkdtempSync(join(tmpdir(), 'ops-catalogue-keys-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('state keys', () => {
  it('createsTheKeyFileOnFirstUseMode0600AndReadsTheSameKeysAfter', () => {
    const path = join(dir, 'first', 'state-keys.json')
    const created = ensureStateKeys(path)
    expect(created.created).toBe(true)
    expect(statSync(path).mode & 0o777).toBe(0o600)
    expect(created.keys).toHaveLength(1)
    expect(created.keys[0]!.secret).toHaveLength(32)
    const again = ensureStateKeys(path)
    expect(again.created).toBe(false)
    expect(again.keys).toEqual(created.keys)
    expect(readdirSync(join(dir, 'first'))).toEqual(['state-keys.json'])
  })
})
