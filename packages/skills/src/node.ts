/**
 * @module @tessera/skills/node
 * Skills read from a folder on disk (Node, Bun, Deno): every folder below it that holds a
 * SKILL.md is a skill, at the path of that folder, with every file below it. The limits are
 * checked on the sizes before a byte is read: a huge file is refused, never loaded.
 */
import { readdir, readFile, stat } from 'node:fs/promises'
import { join, relative, sep } from 'node:path'
import { MAX_SKILL_BYTES, MAX_SKILL_FILES, type SkillSource } from './skill.ts'

export type { SkillSource } from './skill.ts'

/**
 * The skills in `folder`, each a `SkillSource` for `skillsExtension`: a folder holding a SKILL.md
 * is a skill at its path below `folder` (`folder/acme/refunds/SKILL.md` is `skill://acme/refunds`),
 * with every file below it. Hidden files and folders (a leading `.`) are left out.
 *
 * @example
 * ```ts
 * import { createServer } from '@tessera/core'
 * import { skillsExtension } from '@tessera/skills'
 * import { loadSkills } from '@tessera/skills/node'
 *
 * const skills = await loadSkills('./skills')
 * const server = createServer({ name: 'ops', version: '1.0.0', extensions: [skillsExtension({ skills })] })
 * ```
 */
export async function loadSkills(folder: string): Promise<SkillSource[]> {
  const found: SkillSource[] = []
  await collect(folder, folder, found)
  return found
}

/** Looks for skills in `dir` and below; a skill's folder is read whole, and not searched further. */
async function collect(root: string, dir: string, found: SkillSource[]): Promise<void> {
  const entries = await readdir(dir, { withFileTypes: true })
  if (entries.some((entry) => entry.isFile() && entry.name === 'SKILL.md')) {
    const path = relative(root, dir).split(sep).join('/')
    found.push({ ...(path === '' ? {} : { path }), files: await readSkillFolder(dir, path || dir) })
    return
  }
  for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name)))
    if (entry.isDirectory() && !entry.name.startsWith('.')) await collect(root, join(dir, entry.name), found)
}

async function readSkillFolder(dir: string, label: string): Promise<Record<string, Uint8Array>> {
  const paths: string[] = []
  await listFiles(dir, '', paths, label)
  let total = 0
  for (const path of paths) {
    total += (await stat(join(dir, path))).size
    if (total > MAX_SKILL_BYTES)
      throw new TypeError(
        `Skill '${label}': its files add up to more than ${MAX_SKILL_BYTES} bytes (16 MiB).`,
      )
  }
  const files: Record<string, Uint8Array> = {}
  for (const path of paths) files[path] = new Uint8Array(await readFile(join(dir, path)))
  return files
}

async function listFiles(dir: string, prefix: string, out: string[], label: string): Promise<void> {
  for (const entry of await readdir(join(dir, prefix), { withFileTypes: true })) {
    if (entry.name.startsWith('.')) continue
    const path = prefix === '' ? entry.name : `${prefix}/${entry.name}`
    if (entry.isDirectory()) await listFiles(dir, path, out, label)
    else if (entry.isFile()) out.push(path)
    if (out.length > MAX_SKILL_FILES)
      throw new TypeError(`Skill '${label}': has more than ${MAX_SKILL_FILES} files.`)
  }
}
