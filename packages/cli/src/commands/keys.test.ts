/**
 * @module keys.test
 * `tessera keys` as a process: `new` writes a 0600 file and never overwrites one, `rotate` puts
 * a new key first and keeps the old, `rotate --retire` removes an old key but not the sealing
 * one, `list` names the keys; no command ever prints a secret, and a file that is not there is
 * refused in one line naming the command that creates it.
 */
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { readStateKeyFile } from '@tessera/core/request-state'
import { afterAll, describe, expect, it } from 'vitest'
import { type CliRun, errorLine, runCli } from '../run-cli.fixture.ts'

const dir = mkdtempSync(join(tmpdir(), 'tessera-cli-keys-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** Every secret of the file, as the file spells it, for checking that no output contains one. */
const secretsOf = (file: string): string[] =>
  (JSON.parse(readFileSync(file, 'utf8')) as { keys: Array<{ secret: string }> }).keys.map((k) => k.secret)

function expectNoSecret(run: CliRun, file: string): void {
  for (const secret of secretsOf(file)) {
    expect(run.stdout).not.toContain(secret)
    expect(run.stderr).not.toContain(secret)
  }
}

describe('tessera keys', () => {
  it('writesANewFileWithMode0600AndRefusesToOverwriteIt', async () => {
    const file = join(dir, 'nested', 'keys.json')
    const created = await runCli(['keys', 'new', file])
    expect(created.code).toBe(0)
    expect(statSync(file).mode & 0o777).toBe(0o600)
    const [key] = readStateKeyFile(file).keys
    expect(created.stdout).toBe(`${file}: created\n  ${key!.id}  (seals new states)\n`)
    expectNoSecret(created, file)
    const before = readFileSync(file, 'utf8')
    const again = await runCli(['keys', 'new', file])
    expect(again.code).toBe(1)
    expect(again.stderr).toContain('exists already: rotate it instead')
    expect(readFileSync(file, 'utf8')).toBe(before)
  })

  it('rotatesThenRetiresTheOldKey', async () => {
    const file = join(dir, 'rotating.json')
    await runCli(['keys', 'new', file])
    const [old] = readStateKeyFile(file).keys
    const rotated = await runCli(['keys', 'rotate', file])
    expect(rotated.code).toBe(0)
    const ids = readStateKeyFile(file).keys.map((k) => k.id)
    expect(ids).toHaveLength(2)
    expect(ids[1]).toBe(old!.id)
    expect(rotated.stdout).toContain(`added ${ids[0]}, which now seals new states`)
    expectNoSecret(rotated, file)

    const refused = await runCli(['keys', 'rotate', file, '--retire', ids[0]!])
    expect(refused.code).toBe(1)
    expect(refused.stderr).toContain('rotate before retiring it')
    const retired = await runCli(['keys', 'rotate', file, '--retire', old!.id])
    expect(retired.code).toBe(0)
    expect(readStateKeyFile(file).keys.map((k) => k.id)).toEqual([ids[0]])
    expect(retired.stdout).toContain(`retired ${old!.id}`)
  })

  it('listsTheIdsAndWarnsAboutAFileOthersCanRead', async () => {
    const file = join(dir, 'loose.json')
    writeFileSync(file, `{"keys":[{"id":"k1","secret":"${'A'.repeat(43)}"}]}`, { mode: 0o644 })
    const listed = await runCli(['keys', 'list', file])
    expect(listed.code).toBe(0)
    expect(listed.stdout).toBe(`  k1  (seals new states)\n`)
    expect(listed.stderr).toContain('readable by other users: chmod 600 it')
    expectNoSecret(listed, file)
  })

  it('explainsAFileThatIsNotAKeyFile', async () => {
    const file = join(dir, 'broken.json')
    writeFileSync(file, '{"keys":"nope"}')
    const run = await runCli(['keys', 'rotate', file])
    expect(run.code).toBe(1)
    expect(run.stderr).toContain(`${file}: not a key file`)
  })

  it('namesTheCommandThatCreatesAFileThatIsNotThere', async () => {
    const file = join(dir, 'missing.json')
    for (const command of [
      ['list', file],
      ['rotate', file],
    ]) {
      const run = await runCli(['keys', ...command])
      expect(run.code).toBe(1)
      expect(errorLine(run)).toBe(`tessera: ${file} does not exist: create it with tessera keys new ${file}.`)
    }
  })
})
