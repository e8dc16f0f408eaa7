/**
 * @module create-project
 * Writes a new project from the template shipped beside this package: the template is a
 * working project named `my-mcp-server`, and creating one copies it with that name replaced and
 * the Tessera packages pinned to this release, or, with `tarballs`, to the packed packages in a
 * folder (until they are on a registry).
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { basename, join, relative, resolve, sep } from 'node:path'

const TEMPLATE = new URL('../template/', import.meta.url)
const PLACEHOLDER = 'my-mcp-server'
/** npm leaves `.gitignore` out of packages, so the template ships it under another name. */
const RENAMED: Readonly<Record<string, string>> = { _gitignore: '.gitignore' }
const NPM_NAME = /^(?:@[a-z0-9][a-z0-9._-]*\/)?[a-z0-9][a-z0-9._-]*$/

/** How `createProject` names the project and where its Tessera packages come from. */
export interface CreateProjectOptions {
  /** The package name; the folder's name by default. */
  name?: string
  /**
   * A folder of packed Tessera packages (`npm run tarballs` in a clone of the repository makes
   * one): the project depends on them by `file:` path, relative to the project, instead of on
   * the registry's release, and overrides `@tessera/core` so that every package installed later
   * (a store, auth) uses the same one.
   */
  tarballs?: string
}

const OPTIONS: readonly string[] = ['name', 'tarballs'] satisfies readonly (keyof CreateProjectOptions)[]

/** What `createProject` wrote: where, under which package name, and which files. */
export interface CreatedProject {
  /** The project's folder, as an absolute path. */
  directory: string
  /** The package name in its `package.json`. */
  name: string
  /** The files written, relative to `directory`. */
  files: string[]
}

/**
 * Creates the project in `directory` (absent or empty). Throws an Error saying what is wrong, and
 * a TypeError for an option it does not know (this package depends on no Tessera package, so it
 * checks its options itself).
 *
 * @example
 * ```ts
 * import { createProject } from 'create-tessera'
 *
 * const project = createProject('./my-server', { name: 'my-server' })
 * console.log(`${project.files.length} files in ${project.directory}: npm install && npm run dev`)
 * ```
 */
export function createProject(directory: string, options: CreateProjectOptions = {}): CreatedProject {
  if (typeof options !== 'object' || options === null || Array.isArray(options))
    throw new TypeError('createProject: options must be an object.')
  for (const key of Object.keys(options)) {
    if (OPTIONS.includes(key)) continue
    const meant = OPTIONS.find((known) => known.startsWith(key.slice(0, 3)) || key.startsWith(known))
    const hint = meant === undefined ? `its options are ${OPTIONS.join(', ')}` : `did you mean '${meant}'?`
    throw new TypeError(`createProject: unknown option '${key}' (${hint}).`)
  }
  const target = resolve(directory)
  const name =
    options.name ??
    basename(target)
      .toLowerCase()
      .replaceAll(/[^a-z0-9._-]+/g, '-')
  if (!NPM_NAME.test(name) || name.length > 214) throw new Error(`'${name}' is not a valid npm package name.`)
  if (existsSync(target) && (!statSync(target).isDirectory() || readdirSync(target).length > 0))
    throw new Error(`${directory} is not empty: choose a new folder.`)
  const version = (
    JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }
  ).version
  const pin =
    options.tarballs === undefined
      ? () => `^${version}`
      : fromTarballs(resolve(options.tarballs), target, version)
  const files: string[] = []
  const root = new URL(TEMPLATE).pathname
  for (const from of walk(root)) {
    const rel = relative(root, from)
    const to = join(target, ...rel.split('/').map((part) => RENAMED[part] ?? part))
    let text = readFileSync(from, 'utf8').replaceAll(PLACEHOLDER, name)
    if (rel === 'package.json') text = pinTessera(text, pin, options.tarballs !== undefined)
    mkdirSync(join(to, '..'), { recursive: true })
    writeFileSync(to, text)
    files.push(relative(target, to))
  }
  return { directory: target, name, files: files.sort() }
}

function pinTessera(text: string, pin: (dep: string) => string, overrideCore: boolean): string {
  const pkg = JSON.parse(text) as Record<string, Record<string, string>>
  for (const field of ['dependencies', 'devDependencies']) {
    for (const dep of Object.keys(pkg[field] ?? {}))
      if (dep.startsWith('@tessera/')) pkg[field]![dep] = pin(dep)
  }
  // npm looks for a package's own `@tessera/core` dependency on the registry; this makes it the project's.
  if (overrideCore) pkg.overrides = { '@tessera/core': '$@tessera/core' }
  return `${JSON.stringify(pkg, null, 2)}\n`
}

/**
 * `@tessera/core` → `file:../tarballs/tessera-core.tgz`: the tarball `npm run tarballs` names
 * without the version, or `npm pack`'s own name for this release.
 */
function fromTarballs(folder: string, project: string, version: string): (dep: string) => string {
  if (!existsSync(folder) || !statSync(folder).isDirectory())
    throw new Error(`${folder} is not a folder of tarballs: run npm run tarballs in a clone of Tessera.`)
  return (dep) => {
    const flat = dep.replace(/^@/, '').replace('/', '-')
    const found = [`${flat}.tgz`, `${flat}-${version}.tgz`].find((file) => existsSync(join(folder, file)))
    if (found === undefined)
      throw new Error(
        `${folder} has no tarball of ${dep} (${flat}.tgz): run npm run tarballs in a clone of Tessera.`,
      )
    return `file:${relative(project, join(folder, found)).split(sep).join('/')}`
  }
}

function* walk(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) yield* walk(path)
    else yield path
  }
}
