/**
 * @module skill
 * One skill, checked when it is given to the extension: a folder of files with a SKILL.md whose
 * frontmatter names and describes it, within the limits a client may rely on (512 files, 16 MiB).
 * A skill that breaks a rule is refused with an error naming the skill and the rule, before the
 * server starts: never a skill a client would then refuse.
 */
import { readFrontmatter } from './frontmatter.ts'
import { isTextual, mediaTypeOf } from './media-types.ts'

/** A skill as the application gives it: where it sits under `skill://`, and its files. */
export interface SkillSource {
  /**
   * Where it sits under `skill://`: segments separated by `/`, the last of them the skill's name
   * (`acme/billing/refunds`). Default: the name in its frontmatter.
   */
  readonly path?: string
  /** Its files by path inside the skill's folder, `SKILL.md` among them: text (UTF-8) or bytes. */
  readonly files: Readonly<Record<string, string | Uint8Array>>
}

/** The most files one skill may have, SKILL.md included. */
export const MAX_SKILL_FILES = 512
/** The most bytes the files of one skill may add up to. */
export const MAX_SKILL_BYTES = 16 * 1024 * 1024
/** The prefix of frontmatter `metadata` keys reserved for extensions of the protocol. */
const RESERVED_METADATA = 'io.modelcontextprotocol/'
/** The Agent Skills naming rule: 1-64 of a-z, 0-9 and single inner hyphens. */
const NAME = /^(?!.*--)[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/
const PATH_SEGMENT = /^[a-z0-9](?:[a-z0-9.-]*[a-z0-9])?$/
const FILE_SEGMENT = /^[A-Za-z0-9_-][A-Za-z0-9._-]*$/
const MAX_DESCRIPTION = 1024

/** One file of a skill, as it is served. */
export interface SkillFile {
  /** Its path inside the skill's folder (`references/FORMS.md`). */
  readonly path: string
  readonly uri: string
  readonly bytes: Uint8Array<ArrayBuffer>
  readonly mimeType: string
  /** Its content as text, when it is sent as text; undefined: sent as base64. */
  readonly text: string | undefined
}

/** A skill checked and ready to serve. */
export interface Skill {
  readonly name: string
  readonly path: string
  /** The URI of its SKILL.md, which names the skill in `skills/list` and `skills/get`. */
  readonly uri: string
  /** The URI of its folder, `skill://<path>`. */
  readonly directory: string
  readonly frontmatter: Record<string, unknown>
  /** SKILL.md first, then the rest by path. */
  readonly files: readonly SkillFile[]
}

/** Checks `source` and reads it into a skill; a TypeError naming the skill and the rule otherwise. */
export function readSkill(source: SkillSource): Skill {
  let label = typeof source?.path === 'string' ? `Skill '${source.path}'` : 'A skill'
  function fail(rule: string): never {
    throw new TypeError(`${label}: ${rule}.`)
  }
  if (
    typeof source !== 'object' ||
    source === null ||
    typeof source.files !== 'object' ||
    source.files === null
  )
    fail('needs files')
  const paths = Object.keys(source.files)
  const manifest = source.files['SKILL.md']
  if (manifest === undefined) fail('needs a SKILL.md at the root of its files')
  const frontmatter = readFrontmatter(
    typeof manifest === 'string' ? manifest : (decode(manifest, true) ?? ''),
  )
  if (typeof frontmatter === 'string') fail(frontmatter)
  const named = (frontmatter as Record<string, unknown>).name
  if (source.path === undefined && typeof named === 'string') label = `Skill '${named.slice(0, 64)}'`
  const { name } = checkFrontmatter(frontmatter as Record<string, unknown>, fail)
  const path = source.path ?? name
  const segments = path.split('/')
  if (segments.at(-1) !== name) fail(`the last segment of its path must be its name '${name}'`)
  for (const segment of segments.slice(0, -1))
    if (!PATH_SEGMENT.test(segment))
      fail(`path segment '${segment}' must be lowercase letters, digits, dots and hyphens`)
  if (paths.length > MAX_SKILL_FILES) fail(`has ${paths.length} files, more than ${MAX_SKILL_FILES}`)
  const directory = `skill://${path}`
  const files: SkillFile[] = []
  let total = 0
  for (const file of ['SKILL.md', ...paths.filter((p) => p !== 'SKILL.md').sort()]) {
    checkFilePath(file, fail)
    const content = source.files[file]
    if (typeof content !== 'string' && !(content instanceof Uint8Array))
      fail(`file '${file}' must be a string or a Uint8Array`)
    // A copy: what is served and digested cannot change after the check.
    const bytes = typeof content === 'string' ? new TextEncoder().encode(content) : new Uint8Array(content!)
    total += bytes.byteLength
    if (total > MAX_SKILL_BYTES) fail(`its files add up to more than ${MAX_SKILL_BYTES} bytes (16 MiB)`)
    const mimeType = mediaTypeOf(file)
    const text =
      typeof content === 'string' ? content : isTextual(mimeType) ? decode(bytes, false) : undefined
    files.push({ path: file, uri: `${directory}/${file}`, bytes, mimeType, text })
  }
  return {
    name,
    path,
    uri: `${directory}/SKILL.md`,
    directory,
    frontmatter: frontmatter as Record<string, unknown>,
    files,
  }
}

function checkFrontmatter(
  frontmatter: Record<string, unknown>,
  fail: (rule: string) => never,
): { name: string } {
  const { name, description, metadata } = frontmatter
  if (typeof name !== 'string' || name === '') fail('its frontmatter needs a name')
  if (!NAME.test(name as string))
    fail(
      `name '${String(name).slice(0, 80)}' must be 1-64 lowercase letters, digits and single inner hyphens`,
    )
  if (typeof description !== 'string' || description.trim() === '')
    fail('its frontmatter needs a description')
  if ((description as string).length > MAX_DESCRIPTION)
    fail(`its description is longer than ${MAX_DESCRIPTION} characters`)
  if (metadata !== undefined) {
    if (typeof metadata !== 'object' || metadata === null || Array.isArray(metadata))
      fail('its frontmatter metadata must be a mapping')
    for (const key of Object.keys(metadata as object))
      if (key.startsWith(RESERVED_METADATA))
        fail(
          `metadata key '${key}' uses the prefix ${RESERVED_METADATA}, reserved for extensions of the protocol`,
        )
  }
  return { name: name as string }
}

function checkFilePath(path: string, fail: (rule: string) => never): void {
  const segments = path.split('/')
  if (segments.some((segment) => !FILE_SEGMENT.test(segment) || segment === '..'))
    fail(`file path '${path.slice(0, 120)}' must be relative, its segments letters, digits, '.', '_' and '-'`)
  if (segments.length > 1 && segments.at(-1) === 'SKILL.md')
    fail(`file '${path}' would put a skill inside a skill`)
}

/** `bytes` as UTF-8 text; undefined when they are not UTF-8 (or, with `lenient`, with U+FFFD). */
function decode(bytes: Uint8Array, lenient: boolean): string | undefined {
  try {
    return new TextDecoder('utf-8', { fatal: !lenient, ignoreBOM: true }).decode(bytes)
  } catch {
    return undefined
  }
}
