/**
 * @module api-size.test
 * A small application API: at most 60 names at the root of `@tessera/core` (key administration,
 * the wire's shapes and what store authors need live in entry points of their own), and at most
 * 15 public members on `RequestContext`, the object every handler receives (what describes the
 * request and its client is grouped under `ctx.request` and `ctx.client`).
 */
import { join } from 'node:path'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'
import { CORE_SRC, rootCompilerOptions } from './import-scan.ts'

const ROOT_ENTRY = join(CORE_SRC, 'index.ts')
const program = ts.createProgram([ROOT_ENTRY], rootCompilerOptions())
const checker = program.getTypeChecker()
const rootSymbol = checker.getSymbolAtLocation(program.getSourceFile(ROOT_ENTRY)!)!
const rootNames = checker.getExportsOfModule(rootSymbol).map((symbol) => symbol.name)

/** The public members of a class: neither `#private` nor the constructor. */
function publicMembers(name: string): string[] {
  const symbol = checker.getExportsOfModule(rootSymbol).find((s) => s.name === name)!
  const declared = checker.getAliasedSymbol(symbol)
  const instance = checker.getDeclaredTypeOfSymbol(declared)
  return instance
    .getProperties()
    .map((member) => member.name)
    .filter((member) => !member.startsWith('#') && !member.startsWith('__#'))
}

describe('api size', () => {
  it('exportsAtMostSixtyNamesAtTheRootOfCore', () => {
    expect(rootNames).toContain('createServer')
    expect(rootNames.length).toBeLessThanOrEqual(60)
  })

  it('givesHandlersAContextOfAtMostFifteenMembers', () => {
    const members = publicMembers('RequestContext')
    expect(members).toEqual(expect.arrayContaining(['request', 'client', 'ask', 'askAll']))
    expect(members.length).toBeLessThanOrEqual(15)
  })
})
