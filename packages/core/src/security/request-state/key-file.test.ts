import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import { createStateKeyFile, readStateKeyFile, retireStateKey, rotateStateKeyFile } from './key-file.ts'
import { createKeyRing } from './key-ring.ts'

const dir = mkdtempSync(join(tmpdir(), 'tessera-key-file-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))
let n = 0
const fresh = () => join(dir, `case-${++n}`, 'keys.json')

describe('the key file', () => {
  it('createsOneDatedKeyWithMode0600AndLeavesNoTemporaryFile', () => {
    const path = fresh()
    expect(createStateKeyFile(path)).toBe(true)
    expect(statSync(path).mode & 0o777).toBe(0o600)
    const { keys, readableByOthers } = readStateKeyFile(path)
    expect(readableByOthers).toBe(false)
    expect(keys).toHaveLength(1)
    expect(keys[0]!.id).toMatch(/^k\d{8}-[0-9a-f]{6}$/)
    expect(keys[0]!.secret).toHaveLength(32)
    expect(() => createKeyRing(keys)).not.toThrow()
    expect(readdirSync(join(path, '..'))).toEqual(['keys.json'])
  })

  it('leavesAnExistingFileAlone', () => {
    const path = fresh()
    createStateKeyFile(path)
    const before = readFileSync(path, 'utf8')
    expect(createStateKeyFile(path)).toBe(false)
    expect(readFileSync(path, 'utf8')).toBe(before)
  })

  it('rotatesByPuttingANewKeyFirstAndKeepingTheOthers', () => {
    const path = fresh()
    createStateKeyFile(path)
    const [old] = readStateKeyFile(path).keys
    const id = rotateStateKeyFile(path)
    const { keys } = readStateKeyFile(path)
    expect(keys.map((k) => k.id)).toEqual([id, old!.id])
    expect(keys[1]).toEqual(old)
    expect(statSync(path).mode & 0o777).toBe(0o600)
  })

  it('retiresAnOldKeyButNeverTheOneThatSeals', () => {
    const path = fresh()
    createStateKeyFile(path)
    const [old] = readStateKeyFile(path).keys
    expect(() => retireStateKey(path, old!.id)).toThrow('rotate before retiring it')
    const id = rotateStateKeyFile(path)
    expect(() => retireStateKey(path, 'nope')).toThrow(`no key 'nope' (keys: ${id}, ${old!.id})`)
    retireStateKey(path, old!.id)
    expect(readStateKeyFile(path).keys.map((k) => k.id)).toEqual([id])
  })

  it('refusesAMalformedFileNamingWhatIsWrong', () => {
    const path = join(dir, 'bad.json')
    const cases: Array<[string, string]> = [
      ['not json', 'cannot read the key file'],
      ['{"keys":[]}', 'non-empty "keys" array'],
      ['{"keys":[{"id":"a.b","secret":"x"}]}', 'keys[0].id must be'],
      [
        `{"keys":[{"id":"a","secret":"${'A'.repeat(43)}"},{"id":"a","secret":"${'A'.repeat(43)}"}]}`,
        'appears twice',
      ],
      ['{"keys":[{"id":"a","secret":"not base64!"}]}', 'secret must be base64url'],
      ['{"keys":[{"id":"a","secret":"AAAA"}]}', 'shorter than 32 bytes'],
    ]
    for (const [body, message] of cases) {
      writeFileSync(path, body, { mode: 0o600 })
      expect(() => readStateKeyFile(path)).toThrow(message)
    }
    expect(() => readStateKeyFile(join(dir, 'missing.json'))).toThrow('(ENOENT)')
  })

  it('reportsAFileOthersCanRead', () => {
    const path = join(dir, 'loose.json')
    writeFileSync(path, `{"keys":[{"id":"a","secret":"${'A'.repeat(43)}"}]}`, { mode: 0o644 })
    expect(readStateKeyFile(path).readableByOthers).toBe(true)
  })
})

describe('processes creating the key file at once', () => {
  it('endUpWithOneAndTheSameKeyCreatedByExactlyOne', async () => {
    const path = fresh()
    const module = fileURLToPath(new URL('./key-file.ts', import.meta.url))
    // Every process spins until the same instant, so the creations really overlap.
    const at = Date.now() + 2_000
    const script = `import { createStateKeyFile, readStateKeyFile } from ${JSON.stringify(module)}
      while (Date.now() < ${at}) {}
      const created = createStateKeyFile(${JSON.stringify(path)})
      console.log(JSON.stringify({ created, id: readStateKeyFile(${JSON.stringify(path)}).keys[0].id }))`
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
    expect(readdirSync(join(path, '..'))).toEqual(['keys.json'])
  })
})
