/**
 * @module fetch-body.test
 * The body through the fetch face: limited in bytes, not characters; a streamed body is refused
 * past the limit (413, the stream cancelled instead of read on), answered 408 when it stalls, and
 * read whole from many chunks; a declared one is refused without being read when it declares too
 * much, read whole, keeps a byte order mark, is refused past the limit whatever it declared and
 * answered 408 when it never arrives.
 */
import { describe, expect, it } from 'vitest'
import { type Json, readReply } from '../../../../../test/helpers/mcp-http.ts'
import { fault, handlerOf, LIST, post } from './fetch-handler.fixture.ts'

describe('a streamed body', () => {
  it('countsTheBodyLimitInBytesNotCharacters', async () => {
    const body = JSON.stringify({ ...(JSON.parse(LIST.body) as Json), pad: 'é'.repeat(100) })
    const bytes = Buffer.byteLength(body)
    expect((await post(handlerOf({ maxBodyBytes: bytes }), { body })).status).toBe(200)
    const over = await readReply(await post(handlerOf({ maxBodyBytes: bytes - 1 }), { body }))
    expect(over.status).toBe(413)
    expect(over.body).toEqual(fault(-32600, 'Payload too large: the request body exceeds the limit.'))
  })

  it('refusesAStreamedBodyOverTheLimitWith413AndCancelsItInsteadOfReadingOn', async () => {
    const state = { pulls: 0, cancelled: false }
    const chunk = new Uint8Array(1024).fill(0x20)
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        state.pulls++
        controller.enqueue(chunk)
      },
      cancel() {
        state.cancelled = true
      },
    })
    const response = await post(handlerOf({ maxBodyBytes: 4 * 1024 }), { body: endless })
    expect(response.status).toBe(413)
    expect(state.cancelled).toBe(true)
    expect(state.pulls).toBeLessThan(10)
  })

  it('answers408ToAStreamedBodyThatStallsAndCancelsIt', async () => {
    const state = { cancelled: false }
    const stalled = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"jsonrpc":'))
      },
      cancel() {
        state.cancelled = true
      },
    })
    const reply = await readReply(await post(handlerOf({ bodyTimeoutMs: 50 }), { body: stalled }))
    expect(reply.status).toBe(408)
    expect(state.cancelled).toBe(true)
  })

  it('readsAStreamedBodyOfManyChunksWhole', async () => {
    const bytes = new TextEncoder().encode(LIST.body)
    const inPieces = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let at = 0; at < bytes.length; at += 7) controller.enqueue(bytes.slice(at, at + 7))
        controller.close()
      },
    })
    const reply = await readReply(await post(handlerOf(), { body: inPieces }))
    expect(reply.status).toBe(200)
    expect(reply.body).toMatchObject({ id: 1, result: { tools: [{ name: 'noop' }] } })
  })

  it('refusesADeclaredContentLengthOverTheLimitWithoutReadingTheBody', async () => {
    const state = { pulled: false }
    const body = new ReadableStream<Uint8Array>(
      {
        pull(controller) {
          state.pulled = true
          controller.enqueue(new TextEncoder().encode(LIST.body))
          controller.close()
        },
      },
      { highWaterMark: 0 },
    )
    const response = await post(handlerOf({ maxBodyBytes: 64 }), {
      body,
      headers: { 'content-length': '100000' },
    })
    expect(response.status).toBe(413)
    expect(state.pulled).toBe(false)
  })
})

describe('a body of declared length', () => {
  const declared = (body: string) => ({
    body,
    headers: { 'content-length': String(Buffer.byteLength(body)) },
  })

  it('isReadWholeAndAnswered', async () => {
    const reply = await readReply(await post(handlerOf(), declared(LIST.body)))
    expect(reply.status).toBe(200)
    expect(reply.body).toMatchObject({ id: 1, result: { tools: [{ name: 'noop' }] } })
  })

  it('keepsAByteOrderMarkAsTheNodeFaceDoesSoTheBodyIsNotJson', async () => {
    const reply = await readReply(await post(handlerOf(), declared(`\uFEFF${LIST.body}`)))
    expect(reply.status).toBe(400)
    expect((reply.body?.error as { code?: number } | undefined)?.code).toBe(-32700)
  })

  it('isRefusedWhenMoreArrivesThanTheLimitWhateverItDeclared', async () => {
    const body = JSON.stringify({ ...(JSON.parse(LIST.body) as Json), pad: ' '.repeat(5000) })
    const reply = await readReply(
      await post(handlerOf({ maxBodyBytes: 4096 }), { body, headers: { 'content-length': '10' } }),
    )
    expect(reply.status).toBe(413)
  })

  it('isAnswered408WhenItNeverArrives', async () => {
    const stalled = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"jsonrpc":'))
      },
    })
    const reply = await readReply(
      await post(handlerOf({ bodyTimeoutMs: 50 }), { body: stalled, headers: { 'content-length': '100' } }),
    )
    expect(reply.status).toBe(408)
  })
})
