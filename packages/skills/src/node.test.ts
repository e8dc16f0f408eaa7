/**
 * @module node.test
 * Skills read from a folder: every folder with a SKILL.md is a skill at its path, with every file
 * below it (hidden ones left out), and a skill too large is refused before its files are read.
 */
import { mkdirSync, mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { skillsExtension } from './index.ts'
import { loadSkills } from './node.ts'

let folder: string | undefined

function write(files: Record<string, string>): string {
  folder = mkdtempSync(join(tmpdir(), 'tessera-skills-'))
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(folder, path)), { recursive: true })
    writeFileSync(join(folder, path), text)
  }
  return folder
}

const skillMd = (name: string) => `---\nname: ${name}\ndescription: The ${name} skill\n---\n`

afterEach(() => {
  if (folder !== undefined) rmSync(folder, { recursive: true, force: true })
  folder = undefined
})

describe('loadSkills', () => {
  it('readsEveryFolderWithASkillMdAsASkillAtItsPath', async () => {
    const root = write({
      'rollback/SKILL.md': skillMd('rollback'),
      'rollback/references/checklist.md': '- drain first',
      'rollback/.DS_Store': 'hidden',
      'acme/refunds/SKILL.md': skillMd('refunds'),
      'notes.txt': 'not a skill',
    })
    const skills = await loadSkills(root)
    expect(skills.map((skill) => [skill.path, Object.keys(skill.files).sort()])).toEqual([
      ['acme/refunds', ['SKILL.md']],
      ['rollback', ['SKILL.md', 'references/checklist.md']],
    ])
    expect(() => skillsExtension({ skills })).not.toThrow()
  })

  it('refusesASkillTooLargeBeforeReadingIt', async () => {
    const root = write({ 'big/SKILL.md': skillMd('big'), 'big/data.bin': '' })
    truncateSync(join(root, 'big/data.bin'), 17 * 1024 * 1024)
    await expect(loadSkills(root)).rejects.toThrow(
      "Skill 'big': its files add up to more than 16777216 bytes (16 MiB).",
    )
  })
})
