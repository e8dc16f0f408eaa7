/**
 * @module target
 * Which server a command talks to, and how: a URL (Streamable HTTP) or a command to run (stdio),
 * in the era asked for (`auto` tries 2026-07-28 first).
 */
import type { Channel } from '../client/channel.ts'
import { httpChannel } from '../client/http-channel.ts'
import { type JsonObject, RpcError, TransportError } from '../client/json-rpc.ts'
import { type Era, type McpSession, openSession } from '../client/session.ts'
import { stdioChannel } from '../client/stdio-channel.ts'
import { AnswerAborted } from '../terminal/ask-in-terminal.ts'
import { ExitCode } from './exit-codes.ts'

export interface TargetOptions {
  stdio?: string
  era?: string
  header?: string[]
}

export class UsageError extends Error {
  override readonly name = 'UsageError'
}

const CLIENT_INFO = { name: 'tessera-cli', version: '0.1.0' }
const CAPABILITIES: JsonObject = { elicitation: { form: {}, url: {} }, sampling: {}, roots: {} }

export async function connect(url: string | undefined, options: TargetOptions): Promise<McpSession> {
  const era = options.era ?? 'auto'
  if (era !== 'auto' && era !== 'modern' && era !== 'legacy')
    throw new UsageError(`--era must be modern, legacy or auto (got '${era}').`)
  let channel: Channel
  if (options.stdio !== undefined) {
    if (url !== undefined) throw new UsageError('Give a URL or --stdio, not both.')
    channel = stdioChannel(options.stdio)
  } else {
    if (url === undefined) throw new UsageError('Give the server URL, or --stdio "<command>".')
    if (!/^https?:\/\//.test(url)) throw new UsageError(`'${url}' is not an http(s) URL.`)
    channel = httpChannel(url, { headers: parseHeaders(options.header ?? []) })
  }
  try {
    return await openSession(channel, {
      era: era as Era | 'auto',
      clientInfo: CLIENT_INFO,
      capabilities: CAPABILITIES,
    })
  } catch (error) {
    await channel.close().catch(() => {})
    throw error
  }
}

function parseHeaders(pairs: string[]): Record<string, string> {
  const headers: Record<string, string> = {}
  for (const pair of pairs) {
    const colon = pair.indexOf(':')
    if (colon <= 0) throw new UsageError(`--header takes 'name: value' (got '${pair}').`)
    headers[pair.slice(0, colon).trim().toLowerCase()] = pair.slice(colon + 1).trim()
  }
  return headers
}

/** Every page of a list method, items concatenated. */
export async function listAll(session: McpSession, method: string, field: string): Promise<JsonObject[]> {
  const items: JsonObject[] = []
  let cursor: unknown
  for (let page = 0; page < 1_000; page++) {
    const result = await session.request(method, cursor === undefined ? {} : { cursor })
    if (Array.isArray(result[field])) items.push(...(result[field] as JsonObject[]))
    cursor = result.nextCursor
    if (typeof cursor !== 'string' || cursor === '') break
  }
  return items
}

/** Prints why a command failed and returns its exit code. */
export function failure(error: unknown): number {
  if (error instanceof UsageError) {
    process.stderr.write(`tessera: ${error.message}\n`)
    return ExitCode.usage
  }
  if (error instanceof RpcError) {
    const data = error.data === undefined ? '' : `\n${JSON.stringify(error.data, null, 2)}`
    process.stderr.write(`error ${error.code}: ${error.message}${data}\n`)
    return ExitCode.rpcError
  }
  if (error instanceof TransportError || error instanceof AnswerAborted) {
    process.stderr.write(`tessera: ${error.message}\n`)
    return ExitCode.unavailable
  }
  throw error
}
