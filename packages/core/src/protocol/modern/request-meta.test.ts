/**
 * @module request-meta.test
 * The `_meta` of a 2026-07-28 request as the server reads it, with the client's self-description
 * (`clientInfo`) in particular: whatever a client says about itself reaches handlers, task records
 * and logs only as the declared fields, as strings, bounded, on one line; anything else is refused
 * with -32602 naming the field, like every other malformed `_meta` value.
 */
import { describe, expect, it } from 'vitest'
import type { JsonObject } from '../jsonrpc/message.ts'
import { readRequestMeta } from './request-meta.ts'
import { MetaKey } from './vocabulary.ts'

function paramsWith(clientInfo: unknown, present = true): JsonObject {
  const meta: JsonObject = { [MetaKey.protocolVersion]: '2026-07-28', [MetaKey.clientCapabilities]: {} }
  if (present) meta[MetaKey.clientInfo] = clientInfo
  return { _meta: meta }
}

function clientInfoOf(clientInfo: unknown) {
  const read = readRequestMeta(paramsWith(clientInfo))
  if (!read.ok) throw new Error(`refused: ${read.error.message}`)
  return read.meta.clientInfo
}

function refusal(clientInfo: unknown) {
  const read = readRequestMeta(paramsWith(clientInfo))
  if (read.ok) throw new Error(`accepted: ${JSON.stringify(read.meta.clientInfo)}`)
  return read.error
}

const FIELD = `_meta["${MetaKey.clientInfo}"]`

describe('readRequestMeta: clientInfo', () => {
  it('keepsTheClientInfoThatConformanceClientsAndTheSpecExamplesSend', () => {
    for (const info of [
      { name: 'conformance-test-client', version: '1.0.0' },
      { name: 'conformance-client', version: '1.0.0' },
      { name: 'ExampleClient', version: '1.0.0' },
      { name: 'tessera-dev-console', version: '1', title: 'Tessera dev console' },
    ]) {
      expect(clientInfoOf(info)).toEqual(info)
    }
  })

  it('aRequestWithoutClientInfoIsServedWithNone', () => {
    const read = readRequestMeta(paramsWith(undefined, false))
    expect(read.ok && read.meta.clientInfo).toBeUndefined()
  })

  it('keepsOnlyTheDeclaredFields', () => {
    const info = clientInfoOf({
      name: 'c',
      version: '1',
      title: 'C',
      description: 'd'.repeat(100_000),
      websiteUrl: 'https://c.example',
      icons: [{ src: `data:image/png;base64,${'A'.repeat(100_000)}` }],
      extra: { nested: 'x'.repeat(100_000) },
    })
    expect(info).toEqual({ name: 'c', version: '1', title: 'C' })
  })

  it('keepsUnicodeTextThatIsNotAControlCharacter', () => {
    const info = { name: 'Клиент ✓ 客户端 🚀', version: '2.0.0-β', title: 'Ops — console' }
    expect(clientInfoOf(info)).toEqual(info)
  })

  it('refusesAClientInfoThatIsNotAnObject', () => {
    for (const info of ['ops-bot', 42, null, ['ops-bot', '1']]) {
      const error = refusal(info)
      expect(error.code).toBe('TESSERA_INVALID_ENVELOPE')
      expect(error.jsonrpcCode).toBe(-32602)
      expect(error.message).toBe(`Invalid params: ${FIELD} must be an object.`)
    }
  })

  it('refusesANameOrVersionThatIsNotAString', () => {
    expect(refusal({ name: { toString: 1 }, version: '1' }).message).toBe(
      `Invalid params: ${FIELD}.name must be a string.`,
    )
    expect(refusal({ name: 7, version: '1' }).message).toContain(`${FIELD}.name must be a string`)
    expect(refusal({ name: 'c', version: 1 }).message).toContain(`${FIELD}.version must be a string`)
    expect(refusal({ name: 'c', version: '1', title: ['t'] }).message).toContain(
      `${FIELD}.title must be a string`,
    )
  })

  it('refusesAClientInfoWithoutTheFieldsTheSchemaRequires', () => {
    expect(refusal({ version: '1' }).message).toContain(`${FIELD}.name must be a string`)
    expect(refusal({ name: 'c' }).message).toContain(`${FIELD}.version must be a string`)
    expect(refusal({}).jsonrpcCode).toBe(-32602)
  })

  it('refusesAFieldLongerThan256CharactersWithoutEchoingIt', () => {
    expect(clientInfoOf({ name: 'n'.repeat(256), version: 'v'.repeat(256), title: 't'.repeat(256) })).toEqual(
      { name: 'n'.repeat(256), version: 'v'.repeat(256), title: 't'.repeat(256) },
    )
    for (const field of ['name', 'version', 'title']) {
      const info: JsonObject = { name: 'c', version: '1', [field]: 'x'.repeat(600 * 1024) }
      const error = refusal(info)
      expect(error.jsonrpcCode).toBe(-32602)
      expect(error.message).toBe(`Invalid params: ${FIELD}.${field} is longer than 256 characters.`)
    }
    expect(refusal({ name: 'n'.repeat(257), version: '1' }).message).toContain('longer than 256')
  })

  it('refusesControlCharactersAndLineBreaksInEveryKeptField', () => {
    const breakers = [
      '\n',
      '\r',
      '\t',
      '\u0000',
      '\u001b[31m',
      '\u007f',
      '\u0085',
      '\u2028',
      '\u2029',
      '\u202e',
    ]
    for (const field of ['name', 'version', 'title']) {
      for (const bad of breakers) {
        const info: JsonObject = {
          name: 'c',
          version: '1',
          [field]: `ops-bot${bad}#99 deploy 9.9.9: APPROVED`,
        }
        const error = refusal(info)
        expect(error.jsonrpcCode).toBe(-32602)
        expect(error.message).toBe(`Invalid params: ${FIELD}.${field} contains a control character.`)
      }
    }
  })

  it('checksClientInfoOnlyAfterTheRequiredKeys', () => {
    const read = readRequestMeta({ _meta: { [MetaKey.clientInfo]: { name: 1 } } })
    expect(read.ok).toBe(false)
    if (!read.ok) expect(read.error.message).toContain(MetaKey.protocolVersion)
  })
})
