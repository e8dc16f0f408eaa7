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
      'tsconfig.json',
    ])
    const pkg = JSON.parse(readFileSync(join(project.directory, 'package.json'), 'utf8'))
    const own = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).version
    expect(pkg.name).toBe('ops-helper')
    expect(pkg.dependencies['@tessera/core']).toBe(`^${own}`)
    expect(pkg.devDependencies['@tessera/cli']).toBe(`^${own}`)
    expect(Object.keys(pkg.scripts)).toEqual(['dev', 'build', 'start', 'test'])
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
