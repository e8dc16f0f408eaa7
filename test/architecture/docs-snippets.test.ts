/**
 * @module docs-snippets.test
 * The code a reader copies from the documentation is code that compiles: every TypeScript block
 * of README.md, docs/ and the packages' READMEs, found by reading the Markdown, is a module of its
 * own and type-checks as one, strict, against the workspace's packages. And the get-started guide
 * shows the project `npm create tessera` writes, its server and its test, byte for byte, so what
 * a newcomer copies is what the generator test builds and runs.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { ROOT } from './import-scan.ts'
import { type CodeBlock, documentationBlocks, documentationFiles, typescriptBlocks } from './markdown-code.ts'
import { describeFailure, type SnippetFailure, typecheckBlocks } from './snippet-check.ts'

const guide = readFileSync(join(ROOT, 'docs/get-started.md'), 'utf8')
const template = (file: string) => readFileSync(join(ROOT, 'packages/create-tessera/template', file), 'utf8')

/** The first TypeScript block after `heading`. */
function blockAfter(heading: string): string | undefined {
  return /```ts\n([\s\S]*?)```/.exec(guide.slice(guide.indexOf(heading)))?.[1]
}

describe('get-started snippets', () => {
  it('showsTheGeneratedServerExactly', () => {
    expect(blockAfter('## Asking before acting')).toBe(template('src/server.ts'))
  })

  it('showsTheGeneratedTestExactly', () => {
    expect(blockAfter('## Testing a tool in process')).toBe(template('test/server.test.ts'))
  })
})

/** A block that does not compile, checked in the same program, so the check is seen to fail. */
const BROKEN: CodeBlock = typescriptBlocks(
  'broken.md',
  [
    '# Broken',
    '',
    '```ts',
    "import { createServer } from '@tessera/core'",
    '',
    "createServer({ name: 'ops', version: 1 })",
    '```',
    '',
  ].join('\n'),
)[0]!

describe('documentation code blocks', () => {
  const blocks = documentationBlocks()
  let failures: SnippetFailure[] = []
  beforeAll(() => {
    failures = typecheckBlocks([...blocks, BROKEN])
  }, 120_000)

  it('findsEveryTypescriptFenceOfTheGuidesAndReadmes', () => {
    const files = new Set(blocks.map((block) => block.file))
    for (const file of [
      'README.md',
      'docs/get-started.md',
      'docs/guides/tasks.md',
      'packages/core/README.md',
    ]) {
      expect(files).toContain(file)
    }
    for (const path of documentationFiles()) {
      const fences = readFileSync(path, 'utf8').match(/^\s*(```|~~~)\s*(ts|typescript)\b/gm) ?? []
      expect(blocks.filter((block) => join(ROOT, block.file) === path)).toHaveLength(fences.length)
    }
    expect(blocks.length).toBeGreaterThanOrEqual(40)
  })

  it('typeChecksEveryTypeScriptBlockAsAModuleOfItsOwn', () => {
    expect(failures.filter((f) => f.block !== BROKEN).map(describeFailure)).toEqual([])
  })

  it('reportsABlockThatDoesNotCompileAtItsFileAndLine', () => {
    expect(failures.filter((f) => f.block === BROKEN).map(describeFailure)).toEqual([
      "broken.md:3: (at line 6) TS2322: Type 'number' is not assignable to type 'string'.",
    ])
  })

  it('readsTypescriptFencesOnlyAndKeepsTheLineOfEach', () => {
    const markdown = [
      '```sh',
      'npm test',
      '```',
      '',
      '~~~typescript title="x.ts"',
      'const a = 1',
      '~~~',
      '',
    ].join('\n')
    expect(typescriptBlocks('x.md', markdown)).toEqual([{ file: 'x.md', line: 5, code: 'const a = 1\n' }])
    expect(() => typescriptBlocks('open.md', '```ts\nconst a = 1\n')).toThrow(
      'open.md:1: a code block that is never closed',
    )
  })
})
