import { describe, expect, it } from 'vitest'
import type { TesseraError } from '../../errors.ts'
import { parseMessage, readMessage } from './parse.ts'

/** A request whose params nest to a total document depth of `depth` (root object = 1). */
function nestedRequest(depth: number): string {
  const inner = depth - 1
  return `{"jsonrpc":"2.0","id":1,"method":"m","params":${'{"a":'.repeat(inner - 1)}{}${'}'.repeat(inner - 1)}}`
}

/** The JSON-RPC error object a fault puts on the wire. */
function wire(error: TesseraError) {
  return { code: error.jsonrpcCode, message: error.message }
}

function failure(text: string) {
  const outcome = parseMessage(text)
  if (outcome.ok) throw new Error(`expected a fault for ${text}`)
  return outcome
}

describe('parseMessage', () => {
  it('parsesARequestANotificationAndAResponse', () => {
    expect(parseMessage('{"jsonrpc":"2.0","id":"a","method":"tools/list","params":{}}')).toEqual({
      ok: true,
      value: { kind: 'request', message: { jsonrpc: '2.0', id: 'a', method: 'tools/list', params: {} } },
    })
    expect(parseMessage('{"jsonrpc":"2.0","method":"notifications/cancelled"}')).toMatchObject({
      ok: true,
      value: { kind: 'notification' },
    })
    expect(parseMessage('{"jsonrpc":"2.0","id":0,"result":{}}')).toMatchObject({
      ok: true,
      value: { kind: 'response' },
    })
  })

  it('reportsLineAndColumnOfBrokenJson', () => {
    const fault = failure('{\n  "jsonrpc": "2.0",\n  "id": 1\n  "method": "x"\n}')
    expect(fault.error.jsonrpcCode).toBe(-32700)
    expect(fault.error.message).toBe('Parse error: invalid JSON at line 4, column 3.')
    expect(fault).not.toHaveProperty('id')
  })

  it('reportsParseErrorsForSeveralBrokenInputs', () => {
    const cases: Array<[string, string]> = [
      ['', 'line 1, column 1'],
      ['{', 'line 1, column 2'],
      ['{"jsonrpc":"2.0",}', 'line 1, column 18'],
      ["{'jsonrpc':'2.0'}", 'line 1, column 2'],
      ['{"id":1}\n\n  x', 'line 3, column 3'],
    ]
    for (const [text, where] of cases) {
      const fault = failure(text)
      expect(fault.error.jsonrpcCode).toBe(-32700)
      expect(fault.error.message).toContain(where)
    }
  })

  it('refusesABatch', () => {
    const fault = failure('[{"jsonrpc":"2.0","id":1,"method":"m"}]')
    expect(wire(fault.error)).toEqual({
      code: -32600,
      message: 'Invalid request: batches are not supported.',
    })
  })

  it('refusesNonObjects', () => {
    for (const text of ['"x"', '1', 'null', 'true']) expect(failure(text).error.jsonrpcCode).toBe(-32600)
  })

  it('refusesAWrongJsonrpcVersionEchoingAReadableId', () => {
    const fault = failure('{"jsonrpc":"1.0","id":7,"method":"m"}')
    expect(fault.error.jsonrpcCode).toBe(-32600)
    expect(fault.id).toBe(7)
    expect(failure('{"id":8,"method":"m"}').id).toBe(8)
  })

  it('refusesNullFractionalAndNonScalarIdsWithoutEchoingThem', () => {
    for (const id of ['null', '1.5', 'true', '{}', '[1]']) {
      const fault = failure(`{"jsonrpc":"2.0","id":${id},"method":"m"}`)
      expect(fault.error.jsonrpcCode).toBe(-32600)
      expect(fault).not.toHaveProperty('id')
    }
  })

  it('refusesAMissingOrEmptyMethod', () => {
    expect(failure('{"jsonrpc":"2.0","id":3}').error.jsonrpcCode).toBe(-32600)
    expect(failure('{"jsonrpc":"2.0","id":3,"method":""}').id).toBe(3)
    expect(failure('{"jsonrpc":"2.0","id":3,"method":5}').error.jsonrpcCode).toBe(-32600)
  })

  it('refusesNonObjectParams', () => {
    for (const params of ['[]', '"x"', 'null', '3']) {
      const fault = failure(`{"jsonrpc":"2.0","id":4,"method":"m","params":${params}}`)
      expect(wire(fault.error)).toEqual({
        code: -32600,
        message: 'Invalid request: params must be an object.',
      })
      expect(fault.id).toBe(4)
    }
  })

  it('refusesAResponseWithoutAUsableId', () => {
    expect(failure('{"jsonrpc":"2.0","result":{}}').error.jsonrpcCode).toBe(-32600)
    expect(failure('{"jsonrpc":"2.0","id":null,"error":{"code":1,"message":"x"}}').error.jsonrpcCode).toBe(
      -32600,
    )
  })

  it('acceptsTheDefaultDepthLimitAndRefusesOneLevelMore', () => {
    expect(parseMessage(nestedRequest(64)).ok).toBe(true)
    const fault = failure(nestedRequest(65))
    expect(wire(fault.error)).toEqual({
      code: -32600,
      message: 'Invalid request: the message is nested too deeply.',
    })
  })

  it('honoursACustomDepthLimitForArraysToo', () => {
    const text = `{"jsonrpc":"2.0","id":1,"method":"m","params":{"a":${'['.repeat(10)}${']'.repeat(10)}}}`
    expect(parseMessage(text, { maxDepth: 12 }).ok).toBe(true)
    expect(parseMessage(text, { maxDepth: 11 }).ok).toBe(false)
  })

  it('acceptsAWideShallowMessageWhoseBracketsOutnumberTheLimit', () => {
    const siblings = Array.from({ length: 200 }, () => '{"b":[]}').join(',')
    const text = `{"jsonrpc":"2.0","id":1,"method":"m","params":{"a":[${siblings}],"s":"${'{['.repeat(100)}"}}`
    // The message, params, a, each sibling, b: five levels.
    expect(parseMessage(text, { maxDepth: 5 }).ok).toBe(true)
    expect(parseMessage(text, { maxDepth: 4 }).ok).toBe(false)
  })

  it('measuresAHostileDepthWithoutOverflowingTheStack', () => {
    const depth = 100_000
    const text = `{"jsonrpc":"2.0","id":1,"method":"m","params":{"a":${'['.repeat(depth)}${']'.repeat(depth)}}}`
    // JSON.parse itself may refuse this much nesting; either way the answer is a clean fault.
    const outcome = parseMessage(text)
    expect(outcome.ok).toBe(false)
  })

  it('classifiesAnAlreadyParsedValue', () => {
    expect(readMessage({ jsonrpc: '2.0', id: 'x', method: 'm' })).toMatchObject({
      ok: true,
      value: { kind: 'request' },
    })
    const outcome = readMessage([])
    expect(outcome.ok === false && outcome.error.jsonrpcCode).toBe(-32600)
  })

  // JSON.parse rounds an integer beyond 2^53, so echoing it would answer a request the client
  // never sent: such an id is refused instead.
  it('refusesAnIntegerIdItCannotEchoExactly', () => {
    const outcome = parseMessage('{"jsonrpc":"2.0","id":9007199254740993,"method":"m"}')
    expect(outcome.ok).toBe(false)
  })

  it('refusesAStringIdLongerThan256CharactersWithoutEchoingIt', () => {
    expect(parseMessage(`{"jsonrpc":"2.0","id":"${'i'.repeat(256)}","method":"m"}`).ok).toBe(true)
    const fault = failure(`{"jsonrpc":"2.0","id":"${'i'.repeat(900_000)}","method":"m"}`)
    expect(fault.error.message).toBe(
      'Invalid request: id must be a string of at most 256 characters or an integer.',
    )
    expect(fault).not.toHaveProperty('id')
  })
})
