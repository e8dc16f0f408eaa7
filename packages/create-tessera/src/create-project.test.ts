import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { createProject } from './create-project.ts'

const dir = mkdtempSync(join(tmpdir(), 'create-tessera-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('createProject', () => {
  it('writesTheTemplateUnderTheFolderNameWithTesseraPinnedToThisRelease', () => {
    const project = createProject(join(dir, 'Ops Helper'))
    expect(project.name).toBe('ops-helper')
    expect(project.files).toEqual([
      '.gitignore',
      'README.md',
      'package.json',
      'src/main.ts',
      'src/server.ts',
      'test/server.test.ts',
      'tsconfig.build.json',
      'tsconfig.json',
    ])
    const pkg = JSON.parse(readFileSync(join(project.directory, 'package.json'), 'utf8'))
    const own = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).version
    expect(pkg.name).toBe('ops-helper')
    expect(pkg.dependencies['@tessera/core']).toBe(`^${own}`)
    expect(pkg.devDependencies['@tessera/cli']).toBe(`^${own}`)
    expect(Object.keys(pkg.scripts)).toEqual(['dev', 'build', 'start', 'test', 'typecheck'])
    expect(readFileSync(join(project.directory, 'src/server.ts'), 'utf8')).toContain("name: 'ops-helper'")
  })

  it('refusesAFolderThatIsNotEmptyAndANameNpmWouldRefuse', () => {
    const full = join(dir, 'full')
    mkdirSync(full)
    writeFileSync(join(full, 'x'), '')
    expect(() => createProject(full)).toThrow('is not empty')
    expect(() => createProject(join(dir, 'fine'), { name: 'Bad Name' })).toThrow(
      'not a valid npm package name',
    )
  })
})

describe('createProject with tarballs', () => {
  it('dependsOnThePackedPackagesByRelativePathAndOverridesCore', () => {
    const tarballs = join(dir, 'packed')
    mkdirSync(tarballs)
    writeFileSync(join(tarballs, 'tessera-core.tgz'), '')
    writeFileSync(join(tarballs, 'tessera-cli.tgz'), '')
    const project = createProject(join(dir, 'from-tarballs'), { tarballs })
    const pkg = JSON.parse(readFileSync(join(project.directory, 'package.json'), 'utf8'))
    expect(pkg.dependencies['@tessera/core']).toBe('file:../packed/tessera-core.tgz')
    expect(pkg.devDependencies['@tessera/cli']).toBe('file:../packed/tessera-cli.tgz')
    expect(pkg.overrides).toEqual({ '@tessera/core': '$@tessera/core' })
  })

  it('refusesAFolderWithoutTheTarballsItNeedsNamingTheMissingOne', () => {
    const tarballs = join(dir, 'half-packed')
    mkdirSync(tarballs)
    writeFileSync(join(tarballs, 'tessera-core.tgz'), '')
    expect(() => createProject(join(dir, 'half'), { tarballs })).toThrow(
      'has no tarball of @tessera/cli (tessera-cli.tgz): run npm run tarballs in a clone of Tessera.',
    )
    expect(() => createProject(join(dir, 'nowhere'), { tarballs: join(dir, 'absent') })).toThrow(
      'is not a folder of tarballs',
    )
  })

  it('refusesAMisspelledOptionNamingTheKnownOnes', () => {
    expect(() => createProject(join(dir, 'typo'), { tarball: dir } as never)).toThrow(
      "createProject: unknown option 'tarball' (did you mean 'tarballs'?).",
    )
    expect(() => createProject(join(dir, 'typo'), { folder: dir } as never)).toThrow(
      "createProject: unknown option 'folder' (its options are name, tarballs).",
    )
  })
})
