/**
 * @module test-layout.test
 * Tests stay where a reader looks for them and small enough to read: every folder of the server
 * and transport layers has unit tests beside its code, and no test file (suites, helpers,
 * fixtures, runners) is longer than 400 lines.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { CORE_SRC, isTestFile, listFiles, ROOT, repoPath } from './import-scan.ts'

const MAX_LINES = 400

/** Every TypeScript file that belongs to the tests: suites anywhere, and all of `test/`. */
function testFiles(): string[] {
  const suites = ['packages', 'examples'].flatMap((dir) =>
    listFiles(join(ROOT, dir), /\.ts$/).filter((file) => isTestFile(file) || file.includes('/test/')),
  )
  return [...suites, ...listFiles(join(ROOT, 'test'), /\.ts$/)]
}

/** Folders under `server/` and `transports/` that hold source files. */
function layerFolders(): string[] {
  const folders = new Set<string>()
  for (const layer of ['server', 'transports']) {
    for (const file of listFiles(join(CORE_SRC, layer), /\.ts$/)) {
      if (!isTestFile(file)) folders.add(dirname(file))
    }
  }
  return [...folders].sort()
}

describe('test layout', () => {
  it('keepsEveryTestFileUnder400Lines', () => {
    const files = testFiles()
    expect(files.length).toBeGreaterThan(60)
    const long = files
      .map((file) => [repoPath(file), readFileSync(file, 'utf8').split('\n').length - 1] as const)
      .filter(([, lines]) => lines > MAX_LINES)
      .map(([file, lines]) => `${file}: ${lines} lines`)
    expect(long).toEqual([])
  })

  it('hasUnitTestsBesideTheCodeOfEveryServerAndTransportFolder', () => {
    const folders = layerFolders()
    expect(folders.length).toBeGreaterThanOrEqual(8)
    const bare = folders.filter((folder) => !readdirSync(folder).some((name) => name.endsWith('.test.ts')))
    expect(bare.map((folder) => repoPath(folder))).toEqual([])
  })
})
