/**
 * @module build.test
 * `tessera build` on a project of its own in a temporary folder: a TypeScript entry, a plain
 * package that goes into the bundle and a native one that stays out and is named; the bundle
 * runs under plain node. Bad command lines and unresolvable imports fail in one line.
 */
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { buildServer } from './build.ts'
import { CommandError, UsageError } from './failure.ts'
import { hasNativeCode, packageName } from './native-packages.ts'

let project: string
let printed: string

function write(path: string, text: string): void {
  mkdirSync(join(project, path, '..'), { recursive: true })
  writeFileSync(join(project, path), text)
}

function addPackage(name: string, manifest: object, code: string): void {
  write(
    `node_modules/${name}/package.json`,
    JSON.stringify({ name, version: '1.0.0', main: 'index.js', ...manifest }),
  )
  write(`node_modules/${name}/index.js`, code)
}

beforeEach(() => {
  project = mkdtempSync(join(tmpdir(), 'tessera-build-'))
  printed = ''
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
    printed += String(chunk)
    return true
  })
  addPackage('plain-lib', {}, "exports.greeting = 'bundled greeting'\n")
  addPackage('native-lib', { gypfile: true }, "exports.native = 'native from node_modules'\n")
  write(
    'src/server.ts',
    `import { greeting } from 'plain-lib'
import { native } from 'native-lib'
const parts: string[] = [greeting, native]
console.log(parts.join(' | '))
`,
  )
})

afterEach(() => {
  vi.restoreAllMocks()
  rmSync(project, { recursive: true, force: true })
})

describe('tessera build', () => {
  it('bundlesTheEntryAndKeepsANativePackageOutNamingIt', async () => {
    const out = join(project, 'dist/server.mjs')
    expect(await buildServer(join(project, 'src/server.ts'), { out })).toBe(0)
    const bundle = readFileSync(out, 'utf8')
    expect(bundle).toContain('bundled greeting')
    expect(bundle).not.toContain('native from node_modules')
    expect(bundle).toMatch(/require\("native-lib"\)/)
    expect(existsSync(`${out}.map`)).toBe(true)
    expect(printed).toContain('left out, to be installed beside it: native-lib')
    const ran = spawnSync(process.execPath, [out], { cwd: project, encoding: 'utf8' })
    expect(ran.stdout.trim()).toBe('bundled greeting | native from node_modules')
  })

  it('loadsANativePackageOnlyWhenItsImporterFirstRuns', async () => {
    write('src/uses-native.ts', "export { native } from 'native-lib'\n")
    write(
      'src/lazy.ts',
      `if (process.argv[2] === 'native') console.log((await import('./uses-native.ts')).native)
else console.log('no native package needed')
`,
    )
    const out = join(project, 'dist/lazy.mjs')
    await buildServer(join(project, 'src/lazy.ts'), { out })
    // Alone, without the package: a start that never takes the path to it does not need it.
    const alone = mkdtempSync(join(tmpdir(), 'tessera-build-alone-'))
    try {
      writeFileSync(join(alone, 'lazy.mjs'), readFileSync(out))
      const without = spawnSync(process.execPath, ['lazy.mjs'], { cwd: alone, encoding: 'utf8' })
      expect(without.stderr).toBe('')
      expect(without.stdout.trim()).toBe('no native package needed')
    } finally {
      rmSync(alone, { recursive: true, force: true })
    }
    const taken = spawnSync(process.execPath, [out, 'native'], { cwd: project, encoding: 'utf8' })
    expect(taken.stdout.trim()).toBe('native from node_modules')
  })

  it('leavesOutThePackagesNamedExternal', async () => {
    const out = join(project, 'dist/server.mjs')
    await buildServer(join(project, 'src/server.ts'), { out, external: ['plain-lib'] })
    expect(readFileSync(out, 'utf8')).not.toContain('bundled greeting')
    expect(printed).toContain('left out, to be installed beside it: plain-lib, native-lib')
  })

  it('failsInOneLineNamingAnImportItCannotResolve', async () => {
    write('src/broken.ts', "import { nothing } from 'not-installed'\nconsole.log(nothing)\n")
    const failed = buildServer(join(project, 'src/broken.ts'), { out: join(project, 'dist/broken.mjs') })
    await expect(failed).rejects.toThrow(CommandError)
    await expect(failed).rejects.toThrow(/broken\.ts:1:\d+: Could not resolve "not-installed"/)
  })

  it('refusesAMissingEntryAndAnOutputThatIsNotAnEsModuleFile', async () => {
    await expect(buildServer(join(project, 'src/none.ts'), {})).rejects.toThrow(UsageError)
    await expect(
      buildServer(join(project, 'src/server.ts'), { out: join(project, 'dist/server.js') }),
    ).rejects.toThrow('--out must end in .mjs')
  })
})

describe('native packages', () => {
  it('takesAPackageAsNativeByItsBuildItsBinaryOrItsAddonLoader', () => {
    const dir = (name: string, manifest: object, files: string[] = []) => {
      addPackage(name, manifest, '')
      for (const file of files) write(`node_modules/${name}/${file}`, '')
      return join(project, 'node_modules', name)
    }
    expect(hasNativeCode(dir('a', { gypfile: true }))).toBe(true)
    expect(hasNativeCode(dir('b', {}, ['binding.gyp']))).toBe(true)
    expect(hasNativeCode(dir('c', { dependencies: { bindings: '^1.5.0' } }))).toBe(true)
    expect(hasNativeCode(dir('d', { optionalDependencies: { 'node-gyp-build': '^4.0.0' } }))).toBe(true)
    expect(hasNativeCode(dir('e', { binary: { module_name: 'e' } }))).toBe(true)
    expect(hasNativeCode(dir('f', { dependencies: { zod: '^4.0.0' } }))).toBe(false)
  })

  it('namesThePackageOfASpecifier', () => {
    expect(packageName('pino/file')).toBe('pino')
    expect(packageName('@opentelemetry/api/build/x')).toBe('@opentelemetry/api')
  })
})
