/**
 * @module doc-comments
 * Reads the doc comments of the public names with the compiler: every name an entry point exports
 * is followed through its re-exports to where it is declared, and is documented when one of its
 * declarations has a doc comment with words in it. Read by `exports-documented.test.ts`.
 */
import { dirname } from 'node:path'
import ts from 'typescript'
import { repoPath } from './import-scan.ts'

export interface Entry {
  /** `@tessera/core/http` */
  specifier: string
  file: string
}

export interface Exported {
  entry: Entry
  name: string
  /** The symbol the name stands for once every re-export is followed. */
  symbol: ts.Symbol
}

/** Every name each entry point exports, sorted by name within each entry point. */
export function exportsOf(program: ts.Program, entries: readonly Entry[]): Exported[] {
  const checker = program.getTypeChecker()
  return entries.flatMap((entry) => {
    const source = program.getSourceFile(entry.file)
    const moduleSymbol = source && checker.getSymbolAtLocation(source)
    if (!moduleSymbol) throw new Error(`cannot read ${entry.file}`)
    return checker
      .getExportsOfModule(moduleSymbol)
      .sort((a, b) => a.name.localeCompare(b.name))
      .map((exported) => ({
        entry,
        name: exported.name,
        symbol: exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported,
      }))
  })
}

/** Where a name is declared, as `file:line` (its first declaration). */
export function declaredAt(symbol: ts.Symbol): string {
  const declaration = symbol.declarations?.[0]
  if (!declaration) return 'no declaration'
  const source = declaration.getSourceFile()
  const line = source.getLineAndCharacterOfPosition(declaration.getStart(source)).line + 1
  return `${repoPath(source.fileName)}:${line}`
}

const isModuleComment = (doc: ts.JSDoc) => doc.tags?.some((tag) => tag.tagName.text === 'module') === true

/**
 * The doc comments that describe one declaration. A variable's comment sits on its statement; a
 * module's (a namespace re-export) is its `@module` comment, which describes the file and never
 * the declaration that happens to follow it.
 */
function docsOf(declaration: ts.Declaration): ts.JSDoc[] {
  if (ts.isSourceFile(declaration)) {
    const first = declaration.statements[0]
    return first ? ts.getJSDocCommentsAndTags(first).filter(ts.isJSDoc).filter(isModuleComment) : []
  }
  return ts
    .getJSDocCommentsAndTags(declaration)
    .filter(ts.isJSDoc)
    .filter((doc) => !isModuleComment(doc))
}

/** A comment with words in it: a lone tag (`@internal`, `@example`) describes nothing. */
function describes(doc: ts.JSDoc): boolean {
  const words = (comment: ts.JSDoc['comment']) => (ts.getTextOfJSDocComment(comment) ?? '').trim()
  if (words(doc.comment) !== '') return true
  // `@module name` then words: the tag's first word is the name, the rest describes.
  const moduleTag = doc.tags?.find((tag) => tag.tagName.text === 'module')
  return moduleTag !== undefined && words(moduleTag.comment).split(/\s+/).length > 1
}

/** Whether one of the declarations of `symbol` has a describing doc comment. */
export function isDocumented(symbol: ts.Symbol): boolean {
  return (symbol.declarations ?? []).some((d) => docsOf(d).some(describes))
}

/** Every exported name without a describing doc comment, as `entry: Name (file:line)`. */
export function undocumentedExports(program: ts.Program, entries: readonly Entry[]): string[] {
  return exportsOf(program, entries)
    .filter(({ symbol }) => !isDocumented(symbol))
    .map(({ entry, name, symbol }) => `${entry.specifier}: ${name} (${declaredAt(symbol)})`)
}

/** Every name of `required` whose doc comments show no `@example`, as `entry: Name (file:line)`. */
export function missingExamples(
  program: ts.Program,
  entries: readonly Entry[],
  required: Readonly<Record<string, readonly string[]>>,
): string[] {
  const found = exportsOf(program, entries)
  return Object.entries(required).flatMap(([specifier, names]) =>
    names.flatMap((name) => {
      const exported = found.find((e) => e.entry.specifier === specifier && e.name === name)
      if (!exported) return [`${specifier}: ${name} (not exported)`]
      const hasExample = (exported.symbol.declarations ?? []).some((d) =>
        docsOf(d).some((doc) => doc.tags?.some((tag) => tag.tagName.text === 'example')),
      )
      return hasExample ? [] : [`${specifier}: ${name} (${declaredAt(exported.symbol)})`]
    }),
  )
}

/** A program over in-memory files (absolute paths), for a check to be seen to fail. */
export function memoryProgram(files: Readonly<Record<string, string>>): ts.Program {
  const options: ts.CompilerOptions = {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    allowImportingTsExtensions: true,
    noEmit: true,
    noLib: true,
    types: [],
  }
  const host = ts.createCompilerHost(options)
  const text = (name: string) => files[name]
  host.fileExists = (name) => text(name) !== undefined
  host.readFile = (name) => text(name)
  host.getSourceFile = (name, version) => {
    const content = text(name)
    return content === undefined ? undefined : ts.createSourceFile(name, content, version, true)
  }
  host.directoryExists = (dir) => Object.keys(files).some((name) => dirname(name).startsWith(dir))
  host.getCurrentDirectory = () => '/'
  return ts.createProgram({ rootNames: Object.keys(files), options, host })
}
