/**
 * @module build
 * `tessera build <entry>`: bundles a server file (TypeScript or JavaScript) and everything it
 * imports into one ES module for Node, with a source map, for a platform that starts a process
 * per instance: Node then loads one module at each cold start instead of hundreds. What core
 * loads on first use is in the bundle too, and still loaded only then. The bundle gets the
 * `require` its CommonJS packages need. Packages with native code stay out, to be installed
 * beside it, and are still loaded only when their importer first runs (`native-packages.ts`);
 * those named with `--external` stay out too, imported when the bundle starts.
 */
import { existsSync, statSync } from 'node:fs'
import { relative, resolve } from 'node:path'
import { type BuildFailure, build, type Message } from 'esbuild'
import { ExitCode } from './exit-codes.ts'
import { CommandError, UsageError } from './failure.ts'
import { keepNativePackagesOut } from './native-packages.ts'

export interface BuildOptions {
  /** The bundle's path; `.mjs`, since it is an ES module whatever the nearest package.json says. Default {@link DEFAULT_BUNDLE_PATH}. */
  out?: string
  /** Packages to leave out of the bundle, to be installed beside it; imported when it starts. */
  external?: readonly string[]
  /** Minify the bundle (its source map still names the sources). */
  minify?: boolean
}

/** Where the bundle goes when `--out` is not given. */
export const DEFAULT_BUNDLE_PATH = 'dist/server.mjs'

/** Gives the bundle's CommonJS packages the `require` an ES module lacks (for Node's built-ins). */
const REQUIRE_BANNER =
  "import { createRequire as __tesseraCreateRequire } from 'node:module'; const require = __tesseraCreateRequire(import.meta.url);"

/** The Node release the bundle's syntax targets: the oldest the packages support. */
const TARGET = 'node20'

export async function buildServer(entry: string, options: BuildOptions): Promise<number> {
  const file = resolve(entry)
  if (!existsSync(file))
    throw new UsageError(
      `${entry} does not exist: give the path of the server file, e.g. tessera build src/server.ts.`,
    )
  const out = options.out ?? DEFAULT_BUNDLE_PATH
  if (!out.endsWith('.mjs'))
    throw new UsageError(`--out must end in .mjs: the bundle is an ES module (got '${out}').`)
  const kept = new Set<string>()
  let warnings: Message[]
  try {
    const built = await build({
      entryPoints: [file],
      outfile: resolve(out),
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: TARGET,
      sourcemap: 'linked',
      minify: options.minify === true,
      banner: { js: REQUIRE_BANNER },
      external: [...(options.external ?? [])],
      plugins: [keepNativePackagesOut(kept)],
      logLevel: 'silent',
    })
    warnings = built.warnings
  } catch (error) {
    const errors = (error as Partial<BuildFailure>).errors
    if (errors === undefined || errors.length === 0) throw error
    const more = errors.length > 1 ? ` (and ${errors.length - 1} more)` : ''
    throw new CommandError(`could not bundle ${entry}: ${describe(errors[0]!)}${more}.`, ExitCode.failed, {
      cause: error,
    })
  }
  for (const warning of warnings) process.stderr.write(`warning: ${describe(warning)}\n`)
  report(out, [...(options.external ?? []), ...kept])
  return ExitCode.ok
}

function report(out: string, outside: readonly string[]): void {
  const shown = relative(process.cwd(), resolve(out)) || out
  const size = `${(statSync(resolve(out)).size / 1024).toFixed(0)} KiB`
  process.stdout.write(`${shown}: ${size}, with its source map ${shown}.map\n`)
  if (outside.length > 0)
    process.stdout.write(`left out, to be installed beside it: ${[...new Set(outside)].join(', ')}\n`)
  process.stdout.write(`run it with: node --enable-source-maps ${shown}\n`)
}

/** `src/server.ts:3:7: Could not resolve "x"`, or the text alone. */
function describe(message: Message): string {
  const where = message.location
  return where === null ? message.text : `${where.file}:${where.line}:${where.column}: ${message.text}`
}
