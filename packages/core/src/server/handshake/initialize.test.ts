/**
 * @module initialize.test
 * What `initialize` keeps of the client's self-description for the session: the declared fields,
 * checked and bounded like the 2026-07-28 `_meta` clientInfo; a malformed one opens no session.
 */
import { describe, expect, it } from 'vitest'
import type { JsonObject } from '../../protocol/jsonrpc/message.ts'
import { readInitialize } from './initialize.ts'

function initializeWith(clientInfo: unknown): JsonObject {
  return { protocolVersion: '2025-11-25', capabilities: {}, clientInfo }
}

describe('readInitialize: clientInfo', () => {
  it('keepsTheDeclaredFieldsOfTheClientInfoAndDropsTheRest', () => {
    const read = readInitialize(
      initializeWith({
        name: 'conformance-test-client',
        version: '1.0.0',
        title: 'Conformance',
        icons: [{ src: `data:image/png;base64,${'A'.repeat(50_000)}` }],
        extra: 'x'.repeat(50_000),
      }),
    )
    expect(read.clientInfo).toEqual({
      name: 'conformance-test-client',
      version: '1.0.0',
      title: 'Conformance',
    })
  })

  it('anInitializeWithoutClientInfoKeepsNone', () => {
    expect(readInitialize({ protocolVersion: '2025-11-25', capabilities: {} }).clientInfo).toBeUndefined()
  })

  it('refusesAMalformedClientInfoWithInvalidParamsNamingTheField', () => {
    const cases: Array<[unknown, string]> = [
      [{ name: { toString: 1 }, version: '1' }, 'clientInfo.name must be a string'],
      [
        { name: 'ops-bot\n#99 deploy 9.9.9: APPROVED', version: '1' },
        'clientInfo.name contains a control character',
      ],
      [{ name: 'n'.repeat(600 * 1024), version: '1' }, 'clientInfo.name is longer than 256 characters'],
      [{ name: 'c' }, 'clientInfo.version must be a string'],
      ['c', 'clientInfo must be an object'],
    ]
    for (const [info, message] of cases) {
      let thrown: unknown
      try {
        readInitialize(initializeWith(info))
      } catch (error) {
        thrown = error
      }
      expect(thrown).toMatchObject({ code: 'TESSERA_INVALID_PARAMS', jsonrpcCode: -32602 })
      expect((thrown as Error).message).toBe(`Invalid params: initialize ${message}.`)
    }
  })
})
