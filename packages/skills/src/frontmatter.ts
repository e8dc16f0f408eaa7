/**
 * @module frontmatter
 * The YAML frontmatter that opens a SKILL.md: the block between a first line `---` and the next
 * `---`, parsed as YAML into a JSON object (what `skills/list` sends as the entry's `frontmatter`,
 * and what a client compares against the file it reads).
 */
import { CORE_SCHEMA, load } from 'js-yaml'

const BLOCK = /^---\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/

/** The frontmatter of `markdown` as an object; a string saying what is wrong otherwise. */
export function readFrontmatter(markdown: string): Record<string, unknown> | string {
  const text = markdown.charCodeAt(0) === 0xfeff ? markdown.slice(1) : markdown
  const block = BLOCK.exec(text)
  if (block === null) return 'SKILL.md must begin with YAML frontmatter between --- lines'
  let parsed: unknown
  try {
    // YAML 1.2's core schema: a date or a `<<` key stays text, as in the file.
    parsed = load(block[1]!, { schema: CORE_SCHEMA })
  } catch (error) {
    return `its frontmatter is not YAML (${(error as Error).message.split('\n')[0]})`
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    return 'its frontmatter must be a YAML mapping'
  // What the client compares is JSON: a value JSON cannot carry would differ on arrival.
  return JSON.parse(JSON.stringify(parsed)) as Record<string, unknown>
}
