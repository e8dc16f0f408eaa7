/**
 * @module keys.test
 * The key file: created once with mode 0600, shared by processes that start together, refused
 * when a secret is too short.
 */
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import { ensureStateKeys, readKeyFile } from '../src/keys.ts'

const dir = mkdtempSync(join(tmpdir(), 'ops-catalogue-keys-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))
const KEYS = fileURLToPath(new URL('../src/keys.ts', import.meta.url))

describe('state keys', () => {
  it('creates the key file on first use, mode 0600, and reads the same keys after', () => {
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

  it('gives processes that start together one and the same key', async () => {
    const path = join(dir, 'race', 'state-keys.json')
    // Every process spins until the same instant, so the creations really overlap.
    const at = Date.now() + 2_000
    const script = `import { ensureStateKeys } from ${JSON.stringify(KEYS)}
      while (Date.now() < ${at}) {}
      const k = ensureStateKeys(${JSON.stringify(path)})
      console.log(JSON.stringify({ created: k.created, id: k.keys[0].id }))`
    const runs = await Promise.all(
      Array.from({ length: 6 }, async () => {
        const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '--eval', script])
        let out = ''
        child.stdout.on('data', (chunk: Buffer) => {
          out += chunk.toString()
        })
        const [code] = (await once(child, 'exit')) as [number]
        expect(code).toBe(0)
        return JSON.parse(out) as { created: boolean; id: string }
      }),
    )
    expect(new Set(runs.map((r) => r.id)).size).toBe(1)
    expect(runs.filter((r) => r.created)).toHaveLength(1)
    expect(readdirSync(join(dir, 'race'))).toEqual(['state-keys.json'])
  })

  it('refuses a secret shorter than 32 bytes and reports a readable-by-others file', () => {
    const short = join(dir, 'short.json')
    writeFileSync(
      short,
      JSON.stringify({ keys: [{ id: 'k1', secret: Buffer.alloc(16).toString('base64url') }] }),
      { mode: 0o600 },
    )
    expect(() => readKeyFile(short)).toThrow(/shorter than 32 bytes/)
    const loose = join(dir, 'loose.json')
    writeFileSync(
      loose,
      JSON.stringify({ keys: [{ id: 'k1', secret: Buffer.alloc(32, 7).toString('base64url') }] }),
      { mode: 0o644 },
    )
    expect(readKeyFile(loose).looseMode).toBe(0o644)
  })
})
