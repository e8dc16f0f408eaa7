import { join } from 'node:path'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'
import { findingsIn, isTestFile, listFiles, ROOT } from './import-scan.ts'

const MAX_LINES = 60

type FunctionLike = ts.FunctionLikeDeclaration & { body: ts.Node }

function isFunctionWithBody(node: ts.Node): node is FunctionLike {
  return (
    (ts.isFunctionDeclaration(node) ||
      ts.isMethodDeclaration(node) ||
      ts.isArrowFunction(node) ||
      ts.isFunctionExpression(node) ||
      ts.isConstructorDeclaration(node) ||
      ts.isGetAccessor(node) ||
      ts.isSetAccessor(node)) &&
    node.body !== undefined
  )
}

/** Every function of `text` longer than `max` own lines, as `line: N lines`. */
function longFunctions(path: string, text: string, max = MAX_LINES): string[] {
  const source = ts.createSourceFile(
    path,
    text,
    ts.ScriptTarget.Latest,
    true,
    path.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
  )
  const lineOf = (position: number) => source.getLineAndCharacterOfPosition(position).line
  const span = (node: ts.Node) => lineOf(node.getEnd()) - lineOf(node.getStart(source)) + 1
  const found: string[] = []
  const visit = (node: ts.Node): void => {
    if (isFunctionWithBody(node)) {
      let nested = 0
      const inner = (child: ts.Node): void => {
        if (isFunctionWithBody(child) && span(child.body) > 1) nested += span(child.body) - 1
        else ts.forEachChild(child, inner)
      }
      ts.forEachChild(node.body, inner)
      const own = span(node.body) - nested
      if (own > max) found.push(`${lineOf(node.getStart(source)) + 1}: ${own} lines`)
    }
    ts.forEachChild(node, visit)
  }
  visit(source)
  return found
}

function productionFiles(): string[] {
  return listFiles(join(ROOT, 'packages'), /\.tsx?$/).filter(
    (file) => /\/packages\/[^/]+\/(src|ui\/src)\//.test(file) && !isTestFile(file) && !file.endsWith('.d.ts'),
  )
}

describe('function length', () => {
  it('findsTheSourcesItMeasures', () => {
    expect(productionFiles().length).toBeGreaterThan(150)
  })

  it('hasNoProductionFunctionOverSixtyLinesOfItsOwn', () => {
    const found = findingsIn(productionFiles(), longFunctions)
    expect(found).toEqual([])
  })

  it('countsAFunctionsOwnLinesWithoutTheFunctionsItDefines', () => {
    const statements = (n: number) => Array.from({ length: n }, (_, i) => `  const v${i} = ${i}`).join('\n')
    const long = `function long() {\n${statements(4)}\n}`
    const factory = `function factory() {\n  return {\n    a() {\n${statements(4)}\n    },\n  }\n}`
    expect(longFunctions('x.ts', long, 3)).toEqual(['1: 6 lines'])
    expect(longFunctions('x.ts', factory, 5)).toEqual(['3: 6 lines'])
  })
})
