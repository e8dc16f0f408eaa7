/**
 * @module result-encoder.test
 * A complete reply carries its wire text and parses it back on demand, and every reply has the
 * same hidden class: a reply with a shape of its own is kept by the old generation until a full
 * collection, so under load every reply outlived the young generation.
 */
import { setFlagsFromString } from 'node:v8'
import { describe, expect, it } from 'vitest'
import { ResultEncoder } from './result-encoder.ts'

setFlagsFromString('--allow-natives-syntax')
const haveSameMap = new Function('a', 'b', 'return %HaveSameMap(a, b)') as (a: object, b: object) => boolean

const META = { 'io.modelcontextprotocol/serverInfo': { name: 'enc', version: '1.0.0' } }

describe('ResultEncoder', () => {
  it('aCompleteReplyParsesItsOwnText', () => {
    const reply = new ResultEncoder(META).complete(7, { content: [{ type: 'text', text: 'ok' }] })
    expect(reply.kind).toBe('response')
    expect(reply.status).toBe(200)
    expect(reply.body).toEqual(JSON.parse(reply.encoded!))
    expect(reply.body).toEqual({
      jsonrpc: '2.0',
      id: 7,
      result: { content: [{ type: 'text', text: 'ok' }], resultType: 'complete', _meta: META },
    })
  })

  it('sendsTheJsonItsCallMeasuredOnlyForThatVeryResult', () => {
    const encoder = new ResultEncoder(undefined)
    const result = { content: [{ type: 'text', text: 'ok' }] }
    // A measured text that differs from the object shows which one was sent.
    const measured = { result, json: '{"content":[{"type":"text","text":"measured"}]}' }
    expect(encoder.complete(1, result, measured).encoded).toBe(
      '{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"measured"}],"resultType":"complete"}}',
    )
    expect(encoder.complete(1, { ...result }, measured).encoded).toContain('"text":"ok"')
  })

  it('aResultWithATypeOfItsOwnKeepsItsFieldsInOrderAndGetsTheSharedMeta', () => {
    const asked = { resultType: 'input_required', requestState: 'tss1.k.x"y', inputRequests: { a: { n: 1 } } }
    const text = (meta: object | undefined, result: object) =>
      new ResultEncoder(meta as never).complete(1, result as never).encoded
    const expected = (result: object) => `{"jsonrpc":"2.0","id":1,"result":${JSON.stringify(result)}}`
    expect(text(META, asked)).toBe(expected({ ...asked, _meta: META }))
    expect(text(undefined, asked)).toBe(expected(asked))
    const own = { ...asked, _meta: { trace: 'x' } }
    expect(text(META, own)).toBe(expected({ ...asked, _meta: { trace: 'x', ...META } }))
    expect(text(META, { content: [] })).toBe(expected({ content: [], resultType: 'complete', _meta: META }))
  })

  it('everyCompleteReplySharesOneHiddenClass', () => {
    const encoder = new ResultEncoder(META)
    const first = encoder.complete(1, { content: [] })
    const second = encoder.complete('b', { content: [{ type: 'text', text: 'other' }], isError: true })
    expect(haveSameMap(first, second)).toBe(true)
    expect(Object.getOwnPropertyDescriptor(first, 'body')).toBeUndefined()
  })
})
