/**
 * @module errors-documented.test
 * The error contract: every code of `wireMappings` has one row in docs/reference/errors.md that
 * states the same JSON-RPC code, HTTP status and 2025-11-25 code, and the page documents no code
 * that is gone.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { TesseraErrorCode } from '@tessera/core'
import { type WireMapping, wireMappings } from '@tessera/core/protocol'
import { describe, expect, it } from 'vitest'
import { ROOT } from './import-scan.ts'

interface Row {
  jsonrpc: string
  http: string
  handshake: string
}

/** Table rows whose first cell is a backquoted TESSERA_ code: `| \`CODE\` | -32602 | 400 | … |`. */
function documentedRows(): Map<string, Row[]> {
  const text = readFileSync(join(ROOT, 'docs/reference/errors.md'), 'utf8')
  const rows = new Map<string, Row[]>()
  for (const line of text.split('\n')) {
    const cells = line.split('|').map((cell) => cell.trim())
    const code = /^`(TESSERA_[A-Z_]+)`$/.exec(cells[1] ?? '')?.[1]
    if (!line.trimStart().startsWith('|') || code === undefined) continue
    rows.set(code, [
      ...(rows.get(code) ?? []),
      { jsonrpc: cells[2] ?? '', http: cells[3] ?? '', handshake: cells[4] ?? '' },
    ])
  }
  return rows
}

const codes = Object.keys(wireMappings) as TesseraErrorCode[]

describe('errors documented', () => {
  const rows = documentedRows()

  it.each(codes)('%sHasExactlyOneRowWithItsThreeNumbers', (code) => {
    const mapping: WireMapping = wireMappings[code]
    expect(rows.get(code)).toEqual([
      {
        jsonrpc: String(mapping.jsonrpc),
        http: String(mapping.http),
        handshake: String(mapping.handshake ?? mapping.jsonrpc),
      },
    ])
  })

  it('documentsNoCodeThatWireMappingsDoesNotHave', () => {
    expect([...rows.keys()].filter((code) => !(code in wireMappings))).toEqual([])
  })
})
