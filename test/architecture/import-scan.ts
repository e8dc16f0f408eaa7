/**
 * @module import-scan
 * Reads the module specifiers of TypeScript files with the TypeScript parser (not a regex), so
 * every form counts: static and type-only imports, re-exports, `import()` expressions and types,
 * and `require('…')` calls with a literal argument. Shared by the architecture tests.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import ts from 'typescript'

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..')
export const CORE_SRC = join(ROOT, 'packages/core/src')

export interface ImportRef {
  /** The specifier as written. */
  specifier: string
  /** True when the import disappears at runtime (`import type`, `export type`, `import('x').T`). */
  typeOnly: boolean
  line: number
}

/** Every file under `dir` whose name matches `pattern`, sorted, as absolute paths (no node_modules, no results). */
export function listFiles(dir: string, pattern: RegExp): string[] {
  const out: string[] = []
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (SKIPPED_DIRS.has(entry.name)) continue
    const path = join(dir, entry.name)
    if (entry.isDirectory()) out.push(...listFiles(path, pattern))
    else if (pattern.test(entry.name)) out.push(path)
  }
  return out.sort()
}

const SKIPPED_DIRS = new Set(['node_modules', 'dist', 'results', '.data'])

/** Every `.ts` file under `dir`, sorted, as absolute paths. */
export function listTsFiles(dir: string): string[] {
  return listFiles(dir, /\.ts$/)
}

export function isTestFile(path: string): boolean {
  return /\.(test|test-d|fixture)\.ts$/.test(path)
}

/** The module specifiers one file uses, with their line numbers. */
export function importsOf(path: string): ImportRef[] {
  const text = readFileSync(path, 'utf8')
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS)
  const refs: ImportRef[] = []
  const add = (literal: ts.Node, typeOnly: boolean) => {
    if (!ts.isStringLiteralLike(literal)) return
    const line = source.getLineAndCharacterOfPosition(literal.getStart(source)).line + 1
    refs.push({ specifier: literal.text, typeOnly, line })
  }
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node)) add(node.moduleSpecifier, node.importClause?.isTypeOnly === true)
    else if (ts.isExportDeclaration(node) && node.moduleSpecifier) add(node.moduleSpecifier, node.isTypeOnly)
    else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) {
      add(node.moduleReference.expression, node.isTypeOnly)
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument))
      add(node.argument.literal, true)
    else if (ts.isCallExpression(node) && node.arguments.length > 0) {
      const callee = node.expression
      const isImport = callee.kind === ts.SyntaxKind.ImportKeyword
      const isRequire = ts.isIdentifier(callee) && callee.text === 'require'
      if (isImport || isRequire) add(node.arguments[0]!, false)
    }
    ts.forEachChild(node, visit)
  }
  visit(source)
  return refs
}

export function isRelative(specifier: string): boolean {
  return specifier.startsWith('./') || specifier.startsWith('../')
}

/** The absolute path a relative specifier points at. */
export function resolveRelative(fromFile: string, specifier: string): string {
  return resolve(dirname(fromFile), specifier)
}

/** The package name of a bare specifier: `pg/lib/x` → `pg`, `@tessera/core/http` → `@tessera/core`. */
export function packageOf(specifier: string): string {
  const parts = specifier.split('/')
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!
}

/** The root tsconfig's compiler options: its `paths` resolve every package import to sources, built or not. */
export function rootCompilerOptions(): ts.CompilerOptions {
  const config = ts.readConfigFile(join(ROOT, 'tsconfig.json'), ts.sys.readFile).config
  return ts.parseJsonConfigFileContent(config, ts.sys, ROOT).options
}

/** Repository-relative path with forward slashes, for messages. */
export function repoPath(path: string): string {
  return relative(ROOT, path).split('\\').join('/')
}

/** What `check` finds in each of `files`, as `path:finding`: the list an architecture rule expects empty. */
export function findingsIn(
  files: readonly string[],
  check: (path: string, text: string) => string[],
): string[] {
  return files.flatMap((file) =>
    check(file, readFileSync(file, 'utf8')).map((hit) => `${repoPath(file)}:${hit}`),
  )
}
