/**
 * @module wire-literals.test
 * One table of numbers: no source file of any package (the CLI's console page included) writes a
 * JSON-RPC error code or an HTTP status as a literal; every one comes from `errors.ts`
 * (`wireMappings`, `SuccessStatus`). A code is a negative number in the JSON-RPC range; a status
 * is a number given as a `status` property or as the first argument of a reply call (`json`,
 * `empty`, `writeHead`, `respond`).
 */
import { existsSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'
import { findingsIn, isTestFile, listFiles, ROOT } from './import-scan.ts'

const TABLE = join(ROOT, 'packages/core/src/errors.ts')
const REPLY_CALLS = new Set(['json', 'empty', 'writeHead', 'respond'])

/** The source folders of every package: each package's `src/`, and the CLI's console page. */
function sourceDirs(): string[] {
  const packages = join(ROOT, 'packages')
  const dirs = readdirSync(packages, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => join(packages, entry.name, 'src'))
    .filter((dir) => existsSync(dir))
  return [...dirs, join(packages, 'cli/ui/src')]
}

function sourceFiles(): string[] {
  return sourceDirs()
    .flatMap((dir) => listFiles(dir, /\.tsx?$/))
    .filter((file) => !isTestFile(file) && file !== TABLE)
}

const scriptKind = (path: string) => (path.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS)

/** Every wire number written as a literal in `text`, as `line: what`. */
function wireLiterals(path: string, text: string): string[] {
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, scriptKind(path))
  const found: string[] = []
  const at = (node: ts.Node) => source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1
  const isStatus = (node: ts.Node) =>
    ts.isNumericLiteral(node) && Number(node.text) >= 100 && Number(node.text) <= 599
  const visit = (node: ts.Node): void => {
    if (
      ts.isPrefixUnaryExpression(node) &&
      node.operator === ts.SyntaxKind.MinusToken &&
      ts.isNumericLiteral(node.operand)
    ) {
      const value = -Number(node.operand.text)
      if (value >= -32768 && value <= -32000) found.push(`${at(node)}: JSON-RPC code ${value}`)
    }
    if (
      ts.isPropertyAssignment(node) &&
      node.name.getText(source) === 'status' &&
      isStatus(node.initializer)
    ) {
      found.push(`${at(node)}: HTTP status ${node.initializer.getText(source)}`)
    }
    if (ts.isCallExpression(node) && node.arguments.length > 0 && isStatus(node.arguments[0]!)) {
      const callee = node.expression
      const name = ts.isPropertyAccessExpression(callee) ? callee.name.text : callee.getText(source)
      if (REPLY_CALLS.has(name)) found.push(`${at(node)}: HTTP status ${node.arguments[0]!.getText(source)}`)
    }
    ts.forEachChild(node, visit)
  }
  visit(source)
  return found
}

describe('wire literals', () => {
  it('findsTheSourcesItChecks', () => {
    expect(sourceFiles().length).toBeGreaterThan(60)
  })

  it('writesNoJsonRpcCodeOrHttpStatusOutsideTheTable', () => {
    const found = findingsIn(sourceFiles(), wireLiterals)
    expect(found).toEqual([])
  })

  it('catchesEachFormOfLiteral', () => {
    const text = [
      'const a = { code: -32602 }',
      'writer.json(404, body)',
      'res.writeHead(200)',
      'new Response(null, { status: 503, headers: {} })',
      'const fine = { count: 404, offset: -3 }',
    ].join('\n')
    expect(wireLiterals('x.ts', text)).toEqual([
      '1: JSON-RPC code -32602',
      '2: HTTP status 404',
      '3: HTTP status 200',
      '4: HTTP status 503',
    ])
  })
})
