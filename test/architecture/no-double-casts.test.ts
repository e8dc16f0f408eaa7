/**
 * @module no-double-casts.test
 * No value is forced through `unknown` into a type it does not have (`x as unknown as T`), in the
 * sources of any package, the CLI's console page, the tests, the examples or the benchmarks: such a
 * cast turns off every check between two types. A result interface goes where a `JsonObject` does
 * through a type that accepts it (`ResultObject`); a test of a runtime check hands over the wrong
 * value with `unchecked` (`test/helpers/unchecked.ts`); a fake is typed by what the code uses of
 * the real thing. Read with the TypeScript parser, so every spelling counts (`as any as`, angle
 * brackets, parentheses in between).
 */
import { existsSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'
import { findingsIn, listFiles, ROOT } from './import-scan.ts'

/** Every package's `src/`, the console page, and the folders of tests, examples and benchmarks. */
function scannedDirs(): string[] {
  const packages = join(ROOT, 'packages')
  const sources = readdirSync(packages, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => join(packages, entry.name, 'src'))
  return [
    ...sources,
    join(packages, 'cli/ui'),
    ...['test', 'examples', 'bench'].map((dir) => join(ROOT, dir)),
  ]
}

function scannedFiles(): string[] {
  return scannedDirs()
    .filter((dir) => existsSync(dir))
    .flatMap((dir) => listFiles(dir, /\.tsx?$/))
}

type Assertion = ts.AsExpression | ts.TypeAssertion

const isAssertion = (node: ts.Node): node is Assertion =>
  ts.isAsExpression(node) || ts.isTypeAssertionExpression(node)

/** `unknown` and `any`: the types a value passes through to become anything. */
function isTopType(type: ts.TypeNode): boolean {
  return type.kind === ts.SyntaxKind.UnknownKeyword || type.kind === ts.SyntaxKind.AnyKeyword
}

/** Every cast through `unknown` or `any` in `text`, as `line: the cast`. */
function doubleCasts(path: string, text: string): string[] {
  const kind = path.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, kind)
  const found: string[] = []
  const visit = (node: ts.Node): void => {
    if (isAssertion(node)) {
      let inner: ts.Expression = node.expression
      while (ts.isParenthesizedExpression(inner)) inner = inner.expression
      if (isAssertion(inner) && isTopType(inner.type)) {
        const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1
        found.push(`${line}: ${node.getText(source).replace(/\s+/g, ' ').slice(0, 100)}`)
      }
    }
    ts.forEachChild(node, visit)
  }
  visit(source)
  return found
}

describe('no double casts', () => {
  it('findsTheFilesItChecks', () => {
    expect(scannedFiles().length).toBeGreaterThan(300)
  })

  it('castsNothingThroughUnknown', () => {
    const found = findingsIn(scannedFiles(), doubleCasts)
    expect(found).toEqual([])
  })

  it('catchesEachSpellingOfADoubleCast', () => {
    const text = [
      'const a = x as unknown as string',
      'const b = (x as any) as string',
      'const c = <string>(<unknown>x)',
      'const d = f(y as unknown as T, z)',
      'const fine = x as string',
      'const alsoFine = (x as unknown) satisfies unknown',
    ].join('\n')
    expect(doubleCasts('x.ts', text)).toEqual([
      '1: x as unknown as string',
      '2: (x as any) as string',
      '3: <string>(<unknown>x)',
      '4: y as unknown as T',
    ])
  })
})
