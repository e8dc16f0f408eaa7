import { Readable } from 'node:stream'
import { describe, expect, it } from 'vitest'
import { TesseraError } from '../../errors.ts'
import { type BodySource, ClientGoneError, readNodeBody } from './node-body.ts'
import { resolveHttpOptions } from './options.ts'

const options = resolveHttpOptions({ maxBodyBytes: 16, bodyTimeoutMs: 50 }, true)

/** A request stream: `chunks` arrive, then the body ends unless `stall` is set. */
function request(
  chunks: string[],
  init: { headers?: Record<string, string>; stall?: boolean } = {},
): BodySource {
  const stream = new Readable({ read() {} })
  for (const chunk of chunks) stream.push(Buffer.from(chunk))
  if (!init.stall) stream.push(null)
  return Object.assign(stream, { headers: init.headers ?? {} })
}

async function drained(req: Readable): Promise<void> {
  req.resume()
  await new Promise((resolve) => req.once('end', resolve))
}

const codeOf = (error: unknown) => (error instanceof TesseraError ? error.code : error)

describe('readNodeBody', () => {
  it('readsABodyInSeveralChunks', async () => {
    expect(await readNodeBody(request(['{"a"', ':1}']), options)).toBe('{"a":1}')
  })

  it('refusesADeclaredLengthOverTheLimitWithoutReading', async () => {
    const req = request(['x'], { headers: { 'content-length': '17' } })
    await expect(readNodeBody(req, options).catch(codeOf)).resolves.toBe('TESSERA_PAYLOAD_TOO_LARGE')
  })

  it('refusesAStreamedBodyOnceItPassesTheLimit', async () => {
    const req = request(['0123456789', '0123456789'])
    await expect(readNodeBody(req, options).catch(codeOf)).resolves.toBe('TESSERA_PAYLOAD_TOO_LARGE')
  })

  it('refusesABodyThatStopsArrivingOnceTheDeadlinePasses', async () => {
    const started = Date.now()
    const error = await readNodeBody(request(['{"a"'], { stall: true }), options).catch((e: unknown) => e)
    expect(codeOf(error)).toBe('TESSERA_REQUEST_TIMEOUT')
    expect((error as Error).message).toBe('Request timeout: the request body did not arrive within 50 ms.')
    expect(Date.now() - started).toBeGreaterThanOrEqual(45)
  })

  it('takesTheObjectAFrameworkParsedOnceTheStreamIsDrained', async () => {
    const req = request(['{"a":1}'])
    await drained(req)
    req.body = { a: 1 }
    expect(await readNodeBody(req, options)).toBe('{"a":1}')
  })

  it('takesTheTextOrBytesAFrameworkKept', async () => {
    const text = request(['{}'])
    await drained(text)
    text.body = '{"t":1}'
    expect(await readNodeBody(text, options)).toBe('{"t":1}')
    const bytes = request(['{}'])
    await drained(bytes)
    bytes.body = new Uint8Array(Buffer.from('{"b":2}'))
    expect(await readNodeBody(bytes, options)).toBe('{"b":2}')
  })

  it('appliesTheLimitToABodyAFrameworkKept', async () => {
    const req = request(['{}'])
    await drained(req)
    req.body = { long: 'x'.repeat(20) }
    await expect(readNodeBody(req, options).catch(codeOf)).resolves.toBe('TESSERA_PAYLOAD_TOO_LARGE')
  })

  it('saysSoWhenTheStreamWasDrainedAndNoCopyKept', async () => {
    const req = request(['{}'])
    await drained(req)
    const error = await readNodeBody(req, options).catch((e: unknown) => e)
    expect(codeOf(error)).toBe('TESSERA_TRANSPORT_FAILED')
    expect((error as Error).message).toContain('not kept in req.body')
  })

  it('rejectsAsClientGoneWhenTheConnectionClosesMidBody', async () => {
    const req = request(['{"a"'], { stall: true })
    const pending = readNodeBody(req, options)
    req.destroy()
    await expect(pending).rejects.toBeInstanceOf(ClientGoneError)
  })
})
