/**
 * @module pack-tarballs
 * `npm run tarballs [folder]`: packs every publishable package of this repository, from its
 * built `dist/`, into a folder it creates (`./tarballs` unless named), under names without the
 * version (`tessera-core.tgz`), so the commands that install them do not change with a release.
 * Until the packages are on a registry, this is how a project outside the repository gets them:
 * `create-tessera --tarballs <folder>` points a new project at that folder.
 */
import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..')

interface Manifest {
  name: string
  private?: boolean
}

/** `@tessera/core` → `tessera-core.tgz`: npm's tarball name without the version. */
export const tarballName = (name: string): string => `${name.replace(/^@/, '').replace('/', '-')}.tgz`

/**
 * Packs every publishable package into `folder` (created if absent; tarballs already there are
 * replaced). Resolves to package name → tarball path. Throws naming a package that was not built.
 */
export function packTarballs(folder: string): Map<string, string> {
  const destination = resolve(folder)
  mkdirSync(destination, { recursive: true })
  const packed = new Map<string, string>()
  for (const dir of readdirSync(join(ROOT, 'packages')).sort()) {
    const path = join(ROOT, 'packages', dir)
    const manifest = JSON.parse(readFileSync(join(path, 'package.json'), 'utf8')) as Manifest
    if (manifest.private) continue
    if (!existsSync(join(path, 'dist')))
      throw new Error(`${manifest.name} has no dist/: run npm run build first.`)
    const out = execFileSync('npm', ['pack', '--json', '--pack-destination', destination], {
      cwd: path,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    const [{ filename }] = JSON.parse(out) as [{ filename: string }]
    const target = join(destination, tarballName(manifest.name))
    rmSync(target, { force: true })
    renameSync(join(destination, filename), target)
    packed.set(manifest.name, target)
  }
  return packed
}

function main(argv: string[]): number {
  const folder = argv[0] ?? join(ROOT, 'tarballs')
  let packed: Map<string, string>
  try {
    packed = packTarballs(folder)
  } catch (error) {
    process.stderr.write(`tarballs: ${(error as Error).message}\n`)
    return 1
  }
  const shown = (path: string) => relative(process.cwd(), path) || '.'
  const width = Math.max(...[...packed.keys()].map((name) => name.length))
  const lines = [...packed].map(([name, path]) => `  ${name.padEnd(width)}  ${shown(path)}`)
  const generator = packed.get('create-tessera')!
  process.stdout.write(
    `Packed ${packed.size} packages into ${resolve(folder)}:\n${lines.join('\n')}\n\n` +
      'A project of your own, in a new folder:\n' +
      `  npx --yes --package ${generator} create-tessera my-server --tarballs ${dirname(generator)}\n`,
  )
  return 0
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url))
  process.exitCode = main(process.argv.slice(2))
