/**
 * @module native-packages
 * Which packages `tessera build` keeps out of a bundle: those with native code (a compiled
 * `.node` addon, such as better-sqlite3), which a bundler cannot copy into a JavaScript file and
 * which must be installed beside the bundle instead. A package is taken as native when its
 * manifest says it builds with node-gyp (`gypfile`, a `binding.gyp`), names a prebuilt binary
 * (`binary`), or depends on a loader of addons.
 */
import { existsSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import type { Plugin } from 'esbuild'

/** Packages that load or fetch a compiled addon for the package that depends on them. */
const ADDON_LOADERS = [
  'bindings',
  'node-gyp-build',
  'prebuild-install',
  'node-pre-gyp',
  '@mapbox/node-pre-gyp',
]

/** Marks the resolutions this plugin asks for itself, so that it does not see them again. */
const OWN_LOOKUP = Symbol('native-packages lookup')

interface Manifest {
  name?: string
  gypfile?: boolean
  binary?: unknown
  dependencies?: Record<string, string>
  optionalDependencies?: Record<string, string>
}

/** Where a native package's stand-in module lives in the bundle. */
const NAMESPACE = 'tessera-native-package'

/**
 * An esbuild plugin that leaves every native package to run time and adds its name to `kept`.
 * The package is not made external, which would hoist an `import` of it to the top of the bundle
 * and load it (or fail for want of it) at every start, even where the application imports it
 * only on a path it may never take. It becomes a module of the bundle whose body is
 * `require(<package>)`, run when its importer first runs, as without the bundle.
 */
export function keepNativePackagesOut(kept: Set<string>): Plugin {
  const nativeDirs = new Map<string, boolean>()
  // Every import of a package walks up to its folder: each manifest on the way is read once a build.
  const manifests = new Map<string, Manifest | undefined>()
  const manifestIn = (dir: string): Manifest | undefined => {
    if (!manifests.has(dir)) manifests.set(dir, readManifest(dir))
    return manifests.get(dir)
  }
  return {
    name: 'tessera-native-packages',
    setup(build) {
      build.onResolve({ filter: /^[^./#]/ }, async (args) => {
        if (args.pluginData === OWN_LOOKUP || args.path.startsWith('node:')) return undefined
        // The stand-in's own `require`: left to the `require` of the bundle, at run time.
        if (args.namespace === NAMESPACE) return { path: args.path, external: true }
        const name = packageName(args.path)
        const found = await build.resolve(args.path, {
          kind: args.kind,
          importer: args.importer,
          resolveDir: args.resolveDir,
          pluginData: OWN_LOOKUP,
        })
        if (found.errors.length > 0 || found.external || found.path === '') return undefined
        const dir = packageDir(found.path, name, manifestIn)
        if (dir === undefined) return undefined
        let native = nativeDirs.get(dir)
        if (native === undefined) {
          native = hasNativeCode(dir, manifestIn)
          nativeDirs.set(dir, native)
        }
        if (!native) return undefined
        kept.add(name)
        return { path: args.path, namespace: NAMESPACE }
      })
      build.onLoad({ filter: /.*/, namespace: NAMESPACE }, (args) => ({
        contents: `module.exports = require(${JSON.stringify(args.path)})\n`,
        loader: 'js',
      }))
    },
  }
}

/** `@scope/name` or `name`, from a specifier such as `@scope/name/sub/path`. */
export function packageName(specifier: string): string {
  const parts = specifier.split('/')
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!
}

/** The folder of the package `name` that holds `file`: the nearest one up whose manifest is `name`'s. */
function packageDir(
  file: string,
  name: string,
  manifestIn: (dir: string) => Manifest | undefined,
): string | undefined {
  for (let dir = dirname(file); ; dir = dirname(dir)) {
    const manifest = manifestIn(dir)
    if (manifest?.name === name) return dir
    if (dirname(dir) === dir) return undefined
  }
}

/** Whether the package in `dir` builds, fetches or loads a compiled addon. */
export function hasNativeCode(
  dir: string,
  manifestIn: (dir: string) => Manifest | undefined = readManifest,
): boolean {
  const manifest = manifestIn(dir)
  if (manifest === undefined) return false
  if (manifest.gypfile === true || manifest.binary !== undefined) return true
  if (existsSync(join(dir, 'binding.gyp'))) return true
  const needs = { ...manifest.optionalDependencies, ...manifest.dependencies }
  return ADDON_LOADERS.some((loader) => Object.hasOwn(needs, loader))
}

function readManifest(dir: string): Manifest | undefined {
  const file = join(dir, 'package.json')
  if (!existsSync(file)) return undefined
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as Manifest
  } catch {
    return undefined
  }
}
