/**
 * @module markdown-code
 * Finds the TypeScript code blocks of the documentation by reading the Markdown, not a list: every
 * fenced block whose info string starts with `ts` or `typescript`, in README.md, docs/ and each
 * package's README. A block keeps the file and line of its opening fence, so a failure names
 * where to look. Read by `docs-snippets.test.ts`.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { listFiles, ROOT, repoPath } from './import-scan.ts'

export interface CodeBlock {
  /** The Markdown file, relative to the repository root (`docs/guides/tasks.md`). */
  file: string
  /** The 1-based line of the opening fence. */
  line: number
  /** The code, one `\n` after every line, as a reader copies it. */
  code: string
}

const OPENING = /^(\s*)(`{3,}|~{3,})\s*(ts|typescript)(\s.*)?$/

/** Every TypeScript block of `markdown`, in order; an unclosed block is an error, not a silent skip. */
export function typescriptBlocks(file: string, markdown: string): CodeBlock[] {
  const lines = markdown.split('\n')
  const blocks: CodeBlock[] = []
  let fence: { marker: string; indent: number; start: number; typescript: boolean } | undefined
  let body: string[] = []
  for (const [index, text] of lines.entries()) {
    if (fence === undefined) {
      const other = /^(\s*)(`{3,}|~{3,})/.exec(text)
      if (other === null) continue
      const typescript = OPENING.test(text)
      fence = { marker: other[2]!, indent: other[1]!.length, start: index + 1, typescript }
      body = []
    } else if (closes(text, fence.marker)) {
      if (fence.typescript) blocks.push({ file, line: fence.start, code: body.map((l) => `${l}\n`).join('') })
      fence = undefined
    } else {
      // A block inside a list item is indented as the item is; the code is not.
      body.push(text.slice(Math.min(fence.indent, text.length - text.trimStart().length)))
    }
  }
  if (fence !== undefined) throw new Error(`${file}:${fence.start}: a code block that is never closed`)
  return blocks
}

/** The first TypeScript block below the line `heading` of `markdown` (a heading written in full). */
export function blockUnder(file: string, markdown: string, heading: string): CodeBlock {
  const at = markdown.split('\n').indexOf(heading)
  const block = typescriptBlocks(file, markdown).find((b) => at >= 0 && b.line > at)
  if (block === undefined) throw new Error(`${file}: no TypeScript block under "${heading}"`)
  return block
}

/** A closing fence: the opening's character, at least as many times, nothing else on the line. */
function closes(text: string, marker: string): boolean {
  const trimmed = text.trim()
  return trimmed.length >= marker.length && trimmed === marker[0]!.repeat(trimmed.length)
}

/** The Markdown a reader is given: the root README, docs/ and the packages' READMEs. */
export function documentationFiles(): string[] {
  const packages = listFiles(join(ROOT, 'packages'), /^README\.md$/).filter((path) =>
    /^packages\/[^/]+\/README\.md$/.test(repoPath(path)),
  )
  return [join(ROOT, 'README.md'), ...listFiles(join(ROOT, 'docs'), /\.md$/), ...packages]
}

/** Every TypeScript block of the documentation, file by file. */
export function documentationBlocks(): CodeBlock[] {
  return documentationFiles().flatMap((path) => typescriptBlocks(repoPath(path), readFileSync(path, 'utf8')))
}
