/**
 * @module class-style.test
 * One privacy style for classes: what a class keeps to itself is an ECMAScript private member
 * (`#field`, `#method()`), private at runtime as well as to the compiler; no class of any package
 * declares a member (or a constructor parameter property) `private` or `protected`. Declaration
 * files are not ours to style: they describe a platform's classes as the platform made them. Read
 * with the TypeScript parser.
 */
import { existsSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'
import { findingsIn, listFiles, ROOT } from './import-scan.ts'

/** Every package's `src/` and the CLI's console page. */
function sourceFiles(): string[] {
  const packages = join(ROOT, 'packages')
  const dirs = readdirSync(packages, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => join(packages, entry.name, 'src'))
  return [...dirs, join(packages, 'cli/ui/src')]
    .filter((dir) => existsSync(dir))
    .flatMap((dir) => listFiles(dir, /\.tsx?$/))
    .filter((file) => !file.endsWith('.d.ts'))
}

const MODIFIERS = new Set([ts.SyntaxKind.PrivateKeyword, ts.SyntaxKind.ProtectedKeyword])

/** Every member declared `private` or `protected` in `text`, as `line: the modifier and the name`. */
function modifiedMembers(path: string, text: string): string[] {
  const kind = path.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, kind)
  const found: string[] = []
  const visit = (node: ts.Node): void => {
    const modifier = ts.canHaveModifiers(node)
      ? ts.getModifiers(node)?.find((m) => MODIFIERS.has(m.kind))
      : undefined
    if (modifier !== undefined) {
      const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1
      const name = (node as ts.Node & { name?: ts.Node }).name?.getText(source) ?? '(unnamed)'
      found.push(`${line}: ${modifier.getText(source)} ${name}`)
    }
    ts.forEachChild(node, visit)
  }
  visit(source)
  return found
}

describe('class style', () => {
  it('findsTheSourcesItChecks', () => {
    expect(sourceFiles().length).toBeGreaterThan(200)
  })

  it('declaresNoPrivateOrProtectedMember', () => {
    const found = findingsIn(sourceFiles(), modifiedMembers)
    expect(found).toEqual([])
  })

  it('catchesEachKindOfMember', () => {
    const text = [
      'class A {',
      '  private count = 0',
      '  protected readonly name: string',
      '  constructor(private readonly store: Store, public readonly id: string) {}',
      '  private static make(): A { return new A() }',
      '  protected get size(): number { return 0 }',
      '  #fine = 1',
      '  #alsoFine(): void {}',
      '  readonly open = true',
      '}',
    ].join('\n')
    expect(modifiedMembers('x.ts', text)).toEqual([
      '2: private count',
      '3: protected name',
      '4: private store',
      '5: private make',
      '6: protected size',
    ])
  })
})
