/**
 * @module api-docs
 * `npm run docs:api`: writes the API reference, Markdown under `docs/api/`, from the doc comments
 * of every package entry point listed in `typedoc.json` (TypeDoc with typedoc-plugin-markdown). An
 * undocumented name fails the run, as it fails `test/architecture/exports-documented.test.ts`.
 * `npm run docs:api:check` writes it into a temporary folder instead and fails when that differs
 * from the committed `docs/api/`, so the reference cannot fall behind the code.
 *
 * Each entry point's page is named by its import specifier (`@tessera/core/http`, read from the
 * packages' `exports`), and introduced by its `@module` comment: the lines after the tag's first
 * word, since TypeDoc would read all of them as the module's name.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative, resolve } from 'node:path'
import {
  Application,
  Comment,
  type Context,
  Converter,
  type ProjectReflection,
  ReflectionKind,
  TSConfigReader,
  TypeDocReader,
} from 'typedoc'
import { WORKSPACE_ROOT, workspaceSources } from '../test/workspace-sources.ts'

const API_DOCS = join(WORKSPACE_ROOT, 'docs/api')

/**
 * The text of a file's `@module` comment without the tag's line, or undefined. Read as lines, not
 * as tags: a module named `@tessera/core` would read as a tag of its own.
 */
function moduleDescription(file: string): string | undefined {
  const text = readFileSync(file, 'utf8')
  const comment = /^\s*\/\*\*([\s\S]*?)\*\//.exec(text)?.[1]
  if (comment === undefined) return undefined
  const lines = comment.split('\n').map((line) => line.replace(/^\s*\* ?/, '').trimEnd())
  const at = lines.findIndex((line) => line.startsWith('@module'))
  if (at < 0) return undefined
  const description = [...lines.slice(0, at), ...lines.slice(at + 1)].join('\n').trim()
  return description === '' ? undefined : description
}

/** Names each entry point's module by its specifier, and gives it its `@module` description. */
function nameModules(context: Context): void {
  const specifiers = new Map(
    [...workspaceSources()].map(([specifier, source]) => [resolve(WORKSPACE_ROOT, source), specifier]),
  )
  for (const module of context.project.getChildrenByKind(ReflectionKind.Module)) {
    const file = context.project.getSymbolIdFromReflection(module)?.fileName
    const specifier = file === undefined ? undefined : specifiers.get(resolve(file))
    if (file === undefined || specifier === undefined) {
      throw new Error(`docs:api: module ${module.name} is no entry point of a package's exports`)
    }
    module.name = specifier
    const description = moduleDescription(file)
    if (description !== undefined) module.comment = new Comment([{ kind: 'text', text: description }])
  }
}

/** Every file under `dir`, as paths relative to it, sorted. */
function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return []
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((file) => statSync(join(dir, file)).isFile())
    .sort()
}

/** How the committed reference (`expected`) differs from a fresh one (`actual`), file by file. */
function differences(expected: string, actual: string): string[] {
  const want = filesUnder(expected)
  const have = filesUnder(actual)
  const out: string[] = []
  for (const file of have) {
    if (!want.includes(file)) out.push(`missing: ${file}`)
    else if (!readFileSync(join(actual, file)).equals(readFileSync(join(expected, file))))
      out.push(`changed: ${file}`)
  }
  for (const file of want) if (!have.includes(file)) out.push(`stale:   ${file}`)
  return out
}

/**
 * TypeDoc's own validation, and its check that every type a public name refers to is public too,
 * for each package: TypeDoc runs that one only for the package at the repository's root, which
 * publishes nothing.
 */
function validate(app: Application, project: ProjectReflection): void {
  app.validate(project)
  const checks = app.options.getValue('validation')
  if (!checks.notExported) return
  const root = project.packageName
  const onlyExports = Object.fromEntries(Object.keys(checks).map((check) => [check, check === 'notExported']))
  app.options.setValue('validation', onlyExports)
  try {
    for (const name of app.options.getValue('packagesRequiringDocumentation')) {
      project.packageName = name
      app.validate(project)
    }
  } finally {
    project.packageName = root
    app.options.setValue('validation', checks)
  }
}

/**
 * Writes the reference into `out`. False, with a word on why, when TypeDoc reported an error, or
 * a warning while `treatWarningsAsErrors` is on (as `typedoc.json` has it).
 */
async function generate(out: string): Promise<boolean> {
  const app = await Application.bootstrapWithPlugins({ out }, [new TypeDocReader(), new TSConfigReader()])
  app.converter.on(Converter.EVENT_RESOLVE_BEGIN, nameModules)
  const strict = app.options.getValue('treatWarningsAsErrors')
  const failed = () => {
    if (!app.logger.hasErrors() && !(strict && app.logger.hasWarnings())) return false
    process.stderr.write(
      `docs:api: ${app.logger.errorCount} errors and ${app.logger.warningCount} warnings, and each fails ` +
        'the reference: a name without a doc comment (exports-documented.test.ts lists those too), or a ' +
        'public name whose type refers to one no entry point exports.\n',
    )
    return true
  }
  const project = await app.convert()
  if (project === undefined || failed()) return false
  validate(app, project)
  if (failed()) return false
  await app.generateOutputs(project)
  return !failed()
}

async function main(): Promise<number> {
  process.chdir(WORKSPACE_ROOT)
  const check = process.argv.includes('--check')
  const started = performance.now()
  if (!check) {
    if (!(await generate(API_DOCS))) return 1
    process.stdout.write(`docs:api: wrote ${relative(WORKSPACE_ROOT, API_DOCS)}/ in ${took(started)}\n`)
    return 0
  }
  const scratch = mkdtempSync(join(tmpdir(), 'tessera-api-docs-'))
  try {
    const out = join(scratch, 'api')
    if (!(await generate(out))) return 1
    const found = differences(API_DOCS, out)
    if (found.length > 0) {
      process.stderr.write(
        `docs/api/ is not the reference the code gives (${found.length} files):\n  ${found.join('\n  ')}\n` +
          'Run `npm run docs:api` and commit docs/api/.\n',
      )
      return 1
    }
    process.stdout.write(`docs:api:check: docs/api/ is current (${took(started)})\n`)
    return 0
  } finally {
    rmSync(scratch, { recursive: true, force: true })
  }
}

function took(started: number): string {
  return `${((performance.now() - started) / 1000).toFixed(1)} s`
}

process.exitCode = await main()
