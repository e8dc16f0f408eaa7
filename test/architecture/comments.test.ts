/**
 * @module comments.test
 * Comments and docs say what the rule is, in words a reader of this repository can check: no
 * labels of planning documents that are not in it (numbered seeds, sections of a digest, review
 * rounds), no pointer to a file outside it, no stale bug note about code that is fixed, and no
 * test named by a number instead of its behaviour. The patterns below are written so that they do
 * not match themselves.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { listFiles, ROOT, repoPath } from './import-scan.ts'

const FORBIDDEN: ReadonlyArray<[RegExp, string]> = [
  [/\bseed (article|[0-9]{3})\b/i, 'a planning label'],
  [/LESSONS\.md|STYLE\.md|DEVELOPERS\.md/, 'a document outside the repository'],
  [
    /\b(spec|handshake|modern) digest\b|digest [§]|\bspec [§]\d/i,
    'a section of a document outside the repository',
  ],
  [/\breview round [0-9]|\bround [0-9]+ of the review/i, 'a planning label'],
  [/\bBUG:/, 'a bug note (fix it, or pin it with an it.fails test)'],
  [/\bit(\.each\([^)]*\))?\(\s*'row\d+_/, 'a test named by a number'],
]

const SCANNED = ['packages', 'examples', 'test', 'bench', 'docs']

function scannedFiles(): string[] {
  const files = SCANNED.flatMap((dir) => listFiles(join(ROOT, dir), /\.(ts|md)$/))
  const root = ['README.md', 'ARCHITECTURE.md', 'CONTRIBUTING.md'].map((name) => join(ROOT, name))
  return [...root, ...files].filter((file) => !file.endsWith('comments.test.ts'))
}

describe('comments', () => {
  it('scansTheWholeRepository', () => {
    expect(scannedFiles().length).toBeGreaterThan(150)
  })

  it('citesNoPlanningLabelNoOutsideDocumentAndNoStaleBugNote', () => {
    const found: string[] = []
    for (const file of scannedFiles()) {
      const lines = readFileSync(file, 'utf8').split('\n')
      lines.forEach((line, index) => {
        for (const [pattern, what] of FORBIDDEN) {
          if (pattern.test(line))
            found.push(`${repoPath(file)}:${index + 1} ${what}: ${line.trim().slice(0, 80)}`)
        }
      })
    }
    expect(found).toEqual([])
  })
})
