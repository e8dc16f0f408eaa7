/**
 * @module exports-documented.test
 * Every public name says what it is: each name exported by an entry point of a package (every
 * `exports` entry of every package.json, so a new subpath is covered the day it is added) has a
 * doc comment with words in it on its declaration, or on one of its declarations when it has
 * several. A re-export is followed to the name it re-exports: the comment belongs where the name
 * is declared (`doc-comments.ts`). The names a reader meets first show a use of them in an
 * `@example`, and in the packages around the core every member of an exported options interface
 * is documented too. The API reference (`npm run docs:api`) is built from the same comments, by
 * TypeDoc over the entry points `typedoc.json` lists: the list must be the packages' `exports`.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'
import { entryPoints } from './api-report.ts'
import {
  exportsOf,
  isDocumented,
  memoryProgram,
  missingExamples,
  undocumentedExports,
} from './doc-comments.ts'
import { packageOf, ROOT, repoPath, rootCompilerOptions } from './import-scan.ts'

/** The names, by entry point, a reader meets first: each doc comment shows an `@example`. */
const EXAMPLES_REQUIRED: Readonly<Record<string, readonly string[]>> = {
  '@tessera/core': ['createServer', 'McpServer', 'ToolConfig', 'RequestContext', 'TesseraError'],
  '@tessera/auth': ['oauthResourceServer'],
  '@tessera/cli': ['run'],
  '@tessera/cli/console': ['createDevConsole'],
  'create-tessera': ['createProject'],
  '@tessera/store-sqlite': ['sqliteStores'],
  '@tessera/store-redis': ['redisStores'],
  '@tessera/store-postgres': ['postgresStores'],
}

/** Packages whose exported options interfaces document every member. */
const OPTIONS_MEMBERS_DOCUMENTED = [
  '@tessera/auth',
  '@tessera/cli',
  'create-tessera',
  '@tessera/store-sqlite',
  '@tessera/store-redis',
  '@tessera/store-postgres',
]

describe('exports documented', () => {
  const entries = entryPoints()
  const program = ts.createProgram({
    rootNames: entries.map((entry) => entry.file),
    options: { ...rootCompilerOptions(), noEmit: true },
  })
  const checker = program.getTypeChecker()

  it('readsEveryEntryPointOfEveryPackage', () => {
    const specifiers = entries.map((entry) => entry.specifier)
    for (const specifier of Object.keys(EXAMPLES_REQUIRED)) expect(specifiers).toContain(specifier)
    expect(specifiers).toContain('@tessera/core/http')
    expect(exportsOf(program, entries).length).toBeGreaterThan(200)
  })

  it('documentsEveryExportedName', () => {
    expect(undocumentedExports(program, entries)).toEqual([])
  })

  it('showsAnExampleOnTheNamesMetFirst', () => {
    expect(missingExamples(program, entries, EXAMPLES_REQUIRED)).toEqual([])
  })

  it('documentsEveryMemberOfAnOptionsInterfaceAroundTheCore', () => {
    const inScope = entries.filter((entry) => OPTIONS_MEMBERS_DOCUMENTED.includes(packageOf(entry.specifier)))
    const missing = exportsOf(program, inScope)
      .filter(({ name, symbol }) => symbol.flags & ts.SymbolFlags.Interface && name.endsWith('Options'))
      .flatMap(({ entry, name, symbol }) =>
        checker
          .getPropertiesOfType(checker.getDeclaredTypeOfSymbol(symbol))
          .filter((property) => !isDocumented(property))
          .map((property) => `${entry.specifier}: ${name}.${property.name}`),
      )
    expect(missing).toEqual([])
  })

  it('buildsTheApiReferenceFromEveryEntryPoint', () => {
    const config = JSON.parse(readFileSync(join(ROOT, 'typedoc.json'), 'utf8')) as {
      entryPoints: string[]
      packagesRequiringDocumentation: string[]
    }
    const listed = config.entryPoints.map((path) => path.replace(/^\.\//, '')).sort()
    expect(listed, 'typedoc.json entryPoints: one per package export').toEqual(
      entries.map((entry) => repoPath(entry.file)).sort(),
    )
    const packages = [...new Set(entries.map((entry) => packageOf(entry.specifier)))].sort()
    expect([...config.packagesRequiringDocumentation].sort()).toEqual(packages)
  })

  it('catchesAnUndocumentedExportInEachForm', () => {
    const memory = memoryProgram({
      '/memory/entry.ts': [
        '/** Described here. */',
        'export function described(): void {}',
        'export function bare(): void {}',
        '// A line comment is not a doc comment.',
        'export type LineCommented = string',
        '/** @internal */',
        'export const onlyATag = 1',
        "export { reexported, reexportedBare, renamed as alias } from './declared.ts'",
        "export * from './star.ts'",
        '/** Words on the export do not document the declaration. */',
        "export { wordsOnTheExport } from './declared.ts'",
        '/**',
        ' * An overload documented once.',
        ' */',
        'export function overloaded(a: string): void',
        'export function overloaded(a: number): void',
        'export function overloaded(a: unknown): void {}',
      ].join('\n'),
      '/memory/declared.ts': [
        '/** Declared with its comment. */',
        'export const reexported = 1',
        'export const reexportedBare = 2',
        'export class renamed {}',
        'export interface wordsOnTheExport {}',
      ].join('\n'),
      '/memory/star.ts': [
        '/**',
        ' * @module star',
        ' * A module comment describes the file, not the name that follows it.',
        ' */',
        'export interface StarredBare {}',
        '/** Found through a star. */',
        'export interface Starred {}',
      ].join('\n'),
    })
    const entry = { specifier: 'pkg', file: '/memory/entry.ts' }
    const fileOnly = (line: string) => line.replace(/\(.*\//, '(')
    expect(undocumentedExports(memory, [entry]).map(fileOnly)).toEqual([
      'pkg: alias (declared.ts:4)',
      'pkg: bare (entry.ts:3)',
      'pkg: LineCommented (entry.ts:5)',
      'pkg: onlyATag (entry.ts:7)',
      'pkg: reexportedBare (declared.ts:3)',
      'pkg: StarredBare (star.ts:5)',
      'pkg: wordsOnTheExport (declared.ts:5)',
    ])
    expect(missingExamples(memory, [entry], { pkg: ['described', 'absent'] }).map(fileOnly)).toEqual([
      'pkg: described (entry.ts:2)',
      'pkg: absent (not exported)',
    ])
  })
})
