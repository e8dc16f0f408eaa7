/**
 * @module fetch-skill
 * `tessera call <url> --skill <name>`: fetches a skill's SKILL.md (found by its name or the URI
 * `skills/list` gives it), checks it against the digest and size the listing gave, and prints it.
 * A file that does not match its listing is refused, never printed: exit 1.
 */
import { createHash } from 'node:crypto'
import { SKILLS_EXTENSION } from '@tessera/core/protocol'
import { isObject } from '../client/json-rpc.ts'
import { ExitCode } from './exit-codes.ts'
import { UsageError } from './failure.ts'
import { connect, listAll, type TargetOptions } from './target.ts'

/** Resolves with 0 once the skill is printed, 1 when it does not match its listing. */
export async function fetchSkill(
  url: string | undefined,
  skill: string,
  options: TargetOptions,
): Promise<number> {
  const session = await connect(url, options)
  try {
    const caps = session.server.capabilities
    if (!isObject(caps.extensions) || !isObject(caps.extensions[SKILLS_EXTENSION]))
      throw new UsageError(`The server offers no skills (the ${SKILLS_EXTENSION} extension).`)
    const skills = await listAll(session, 'skills/list', 'skills')
    const nameOf = (entry: (typeof skills)[number]) =>
      isObject(entry.frontmatter) ? String(entry.frontmatter.name) : String(entry.uri)
    const entry = skills.find((s) => s.uri === skill || nameOf(s) === skill)
    if (entry === undefined) {
      const known = skills.map(nameOf).join(', ') || 'none'
      throw new UsageError(`The server has no skill '${skill}' (skills: ${known}).`)
    }
    const uri = String(entry.uri)
    const read = await session.request('resources/read', { uri })
    const content = Array.isArray(read.contents) ? read.contents.find(isObject) : undefined
    const text = typeof content?.text === 'string' ? content.text : undefined
    const listed = Array.isArray(entry.resources)
      ? entry.resources.filter(isObject).find((r) => r.uri === uri)
      : undefined
    const fault = text === undefined ? 'came without text' : mismatch(text, listed)
    if (fault !== undefined) {
      process.stderr.write(`${uri} ${fault}: not printed.\n`)
      return ExitCode.failed
    }
    process.stdout.write(text!.endsWith('\n') ? text! : `${text}\n`)
    return ExitCode.ok
  } finally {
    await session.close()
  }
}

/** Why `text` is not the file its listing describes; undefined when it is (or none is listed). */
function mismatch(text: string, listed: Record<string, unknown> | undefined): string | undefined {
  if (listed === undefined) return undefined
  const bytes = Buffer.from(text, 'utf8')
  if (bytes.length !== listed.size)
    return `is ${bytes.length} bytes where its listing says ${String(listed.size)}`
  const digest = `sha256:${createHash('sha256').update(bytes).digest('hex')}`
  return digest === listed.digest ? undefined : 'does not match the digest of its listing'
}
