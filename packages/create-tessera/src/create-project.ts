/**
 * @module create-project
 * Writes a new project from the template shipped beside this package: the template is a
 * working project named `my-mcp-server`, and creating one copies it with that name replaced and
 * the Tessera packages pinned to this release.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { basename, join, relative, resolve } from 'node:path'

const TEMPLATE = new URL('../template/', import.meta.url)
const PLACEHOLDER = 'my-mcp-server'
/** npm leaves `.gitignore` out of packages, so the template ships it under another name. */
const RENAMED: Readonly<Record<string, string>> = { _gitignore: '.gitignore' }
const NPM_NAME = /^(?:@[a-z0-9][a-z0-9._-]*\/)?[a-z0-9][a-z0-9._-]*$/

export interface CreatedProject {
  directory: string
  name: string
  /** The files written, relative to `directory`. */
  files: string[]
}

/**
 * Creates the project in `directory` (absent or empty). Throws an Error saying what is wrong, and
 * a TypeError for an option it does not know (this package depends on no Tessera package, so it
 * checks its one option itself).
 */
export function createProject(directory: string, options: { name?: string } = {}): CreatedProject {
  if (typeof options !== 'object' || options === null || Array.isArray(options))
    throw new TypeError('createProject: options must be an object.')
  for (const key of Object.keys(options)) {
    if (key !== 'name')
      throw new TypeError(`createProject: unknown option '${key}' (its only option is 'name').`)
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
  const files: string[] = []
  const root = new URL(TEMPLATE).pathname
  for (const from of walk(root)) {
    const rel = relative(root, from)
    const to = join(target, ...rel.split('/').map((part) => RENAMED[part] ?? part))
    let text = readFileSync(from, 'utf8').replaceAll(PLACEHOLDER, name)
    if (rel === 'package.json') text = pinTessera(text, version)
    mkdirSync(join(to, '..'), { recursive: true })
    writeFileSync(to, text)
    files.push(relative(target, to))
  }
  return { directory: target, name, files: files.sort() }
}

function pinTessera(text: string, version: string): string {
  const pkg = JSON.parse(text) as Record<string, Record<string, string>>
  for (const field of ['dependencies', 'devDependencies']) {
    for (const dep of Object.keys(pkg[field] ?? {}))
      if (dep.startsWith('@tessera/')) pkg[field]![dep] = `^${version}`
  }
  return `${JSON.stringify(pkg, null, 2)}\n`
}

function* walk(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) yield* walk(path)
    else yield path
  }
}
