/**
 * @module test-layout.test
 * Tests stay where a reader looks for them and small enough to read: every folder of the server
 * and transport layers has unit tests beside its code, no test file (suites, helpers,
 * fixtures, runners) is longer than 400 lines, and every test is named after its behaviour in one
 * style, lowerCamelCase (`rejectsAStateMintedForAnotherPrincipal`), read by the TypeScript parser
 * (`test-names.ts`) so every form of `it`/`test` counts. `describe` titles may be phrases.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { CORE_SRC, findingsIn, isTestFile, listFiles, ROOT, repoPath } from './import-scan.ts'
import { misnamedTests } from './test-names.ts'

const MAX_LINES = 400

/** Every TypeScript file that belongs to the tests: suites anywhere, and all of `test/`. */
function testFiles(): string[] {
  const suites = ['packages', 'examples'].flatMap((dir) =>
    listFiles(join(ROOT, dir), /\.ts$/).filter((file) => isTestFile(file) || file.includes('/test/')),
  )
  return [...suites, ...listFiles(join(ROOT, 'test'), /\.ts$/)]
}

/** Every file that may call `it` or `test`: the files of the tests, and the benchmarks. */
function namedFiles(): string[] {
  return [...testFiles(), ...listFiles(join(ROOT, 'bench'), /\.ts$/)]
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

  it('namesEveryTestInLowerCamelCase', () => {
    const misnamed = findingsIn(namedFiles(), misnamedTests)
    expect(misnamed).toEqual([])
  })

  it('catchesASentenceNameInEachFormOfTestCall', () => {
    const text = [
      "it('refuses a sentence', () => {})",
      "test.skip('StartsUpperCase', () => {})",
      "it.each([1])('%s refuses it', () => {})",
      `it.skipIf(slow)(\`\${name} refuses it\`, () => {})`,
      `it.each\`a \${1}\`('has space $a', () => {})`,
      "it('refusesNothing', () => {})",
      `it(\`\${name}RefusesNothing\`, () => {})`,
      "it.each([1])('%sRefusesNothing', () => {})",
      "describe('a describe title may be a phrase', () => {})",
      "pattern.test('not a test at all')",
    ].join('\n')
    expect(misnamedTests('x.test.ts', text)).toEqual([
      "1: 'refuses a sentence'",
      "2: 'StartsUpperCase'",
      "3: '%s refuses it'",
      `4: \`\${name} refuses it\``,
      "5: 'has space $a'",
    ])
  })
})
