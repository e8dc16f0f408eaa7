/**
 * @module node-body
 * Reads a node:http request body with a byte limit and a deadline. Frameworks that parse bodies
 * (Express's `express.json()`, Fastify) have already drained the stream by the time the MCP
 * listener runs; the body is then taken from `req.body`, where they leave it.
 */
import type { IncomingMessage } from 'node:http'
import type { Readable } from 'node:stream'
import { TesseraError } from '../../errors.ts'
import { bodyTimedOut, bodyTooLarge } from './http-input.ts'
import type { ResolvedHttpOptions } from './options.ts'

/** A request a framework may have decorated with the body it already read. */
export type NodeRequest = IncomingMessage & { body?: unknown }

/** What reading a body uses of a request: its stream, its headers, and the body a framework kept. */
export type BodySource = Readable & Pick<IncomingMessage, 'headers'> & { body?: unknown }

/** The client went away before its body was complete: routine, not a failure of ours. */
export class ClientGoneError extends Error {
  override readonly name = 'ClientGoneError'
}

export function readNodeBody(req: BodySource, options: ResolvedHttpOptions): Promise<string> {
  if (req.readableEnded) return Promise.resolve().then(() => bodyReadBefore(req, options))
  if (Number(req.headers['content-length']) > options.maxBodyBytes) {
    req.resume()
    return Promise.reject(bodyTooLarge())
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    let settled = false
    // The listeners stay on the request once it is settled: taking them off costs more than the
    // events that may still come (its close) cost to ignore. They keep no bytes: the chunks go.
    const settle = (error: Error | undefined): void => {
      if (settled) return
      settled = true
      deadline.cancel()
      if (error === undefined) {
        resolve(chunks.length === 1 ? chunks[0]!.toString('utf8') : Buffer.concat(chunks).toString('utf8'))
        chunks.length = 0
        return
      }
      chunks.length = 0
      // Whatever else the client sends is discarded, not buffered.
      req.resume()
      reject(error)
    }
    const onData = (chunk: Buffer): void => {
      if (settled) return
      size += chunk.length
      if (size > options.maxBodyBytes) settle(bodyTooLarge())
      else chunks.push(chunk)
    }
    const onEnd = (): void => settle(undefined)
    // Every request closes; only one that closes unsettled is a client gone (an Error costs its stack).
    const onClose = (): void => {
      if (!settled) settle(new ClientGoneError('The client closed the connection mid-body.'))
    }
    const deadline = options.bodyDeadlines.add(() => settle(bodyTimedOut(options.bodyTimeoutMs)))
    req.on('data', onData).on('end', onEnd).on('error', settle).on('close', onClose)
  })
}

/** The body of a request whose stream a framework has drained, as the framework kept it. */
function bodyReadBefore(req: BodySource, options: ResolvedHttpOptions): string {
  const kept = req.body
  let text: string
  if (typeof kept === 'string') text = kept
  else if (kept instanceof Uint8Array)
    text = Buffer.from(kept.buffer, kept.byteOffset, kept.byteLength).toString('utf8')
  else if (typeof kept === 'object' && kept !== null) text = JSON.stringify(kept)
  else {
    throw new TesseraError(
      'TESSERA_TRANSPORT_FAILED',
      'Internal error: the request body was read before the MCP endpoint and not kept in req.body.',
    )
  }
  if (Buffer.byteLength(text) > options.maxBodyBytes) throw bodyTooLarge()
  return text
}
