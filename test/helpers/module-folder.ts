/**
 * @module module-folder
 * A temporary folder where TypeScript files are ES modules that import what this repository has
 * installed: it holds a `package.json` of `"type": "module"` and a link to the repository's
 * node_modules, so `zod` or an OpenTelemetry package resolves to the copy here, for the compiler
 * and for tsx alike (`@tessera/*` resolves through the root tsconfig's `paths`). For code shown
 * in the documentation, run or type-checked as a reader would copy it.
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..')

export interface ModuleFolder {
  readonly dir: string
  /** Writes `code` at `path` (relative to the folder, folders made as needed) and returns its absolute path. */
  write(path: string, code: string): string
  remove(): void
}

export function moduleFolder(): ModuleFolder {
  const dir = mkdtempSync(join(tmpdir(), 'tessera-modules-'))
  writeFileSync(join(dir, 'package.json'), '{ "type": "module" }\n')
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir')
  return {
    dir,
    write(path, code) {
      const file = join(dir, path)
      mkdirSync(dirname(file), { recursive: true })
      writeFileSync(file, code)
      return file
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  }
}
