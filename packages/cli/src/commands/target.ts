/**
 * @module target
 * Which server a command talks to, and how: a URL (Streamable HTTP) or a command to run (stdio),
 * in the era asked for (`auto` tries 2026-07-28 first).
 */
import type { Channel } from '../client/channel.ts'
import { httpChannel } from '../client/http-channel.ts'
import type { JsonObject } from '../client/json-rpc.ts'
import { type Era, type McpSession, openSession } from '../client/session.ts'
import { stdioChannel } from '../client/stdio-channel.ts'
import { UsageError } from './failure.ts'

export interface TargetOptions {
  stdio?: string
  era?: string
  header?: string[]
}

const CLIENT_INFO = { name: 'tessera-cli', version: '0.1.0' }
const CAPABILITIES: JsonObject = { elicitation: { form: {}, url: {} }, sampling: {}, roots: {} }

export async function connect(url: string | undefined, options: TargetOptions): Promise<McpSession> {
  const era = options.era ?? 'auto'
  if (era !== 'auto' && era !== 'modern' && era !== 'handshake')
    throw new UsageError(`--era must be modern, handshake or auto (got '${era}').`)
  let channel: Channel
  if (options.stdio !== undefined) {
    if (url !== undefined) throw new UsageError('Give a URL or --stdio, not both.')
    channel = stdioChannel(options.stdio)
  } else {
    if (url === undefined) throw new UsageError('Give the server URL, or --stdio "<command>".')
    if (!/^https?:\/\//.test(url) || !URL.canParse(url))
      throw new UsageError(`'${url}' is not an http(s) URL (e.g. http://127.0.0.1:3000/mcp).`)
    // fetch refuses such a URL, and every message would repeat the password in it.
    const { username, password } = new URL(url)
    if (username !== '' || password !== '')
      throw new UsageError(
        "The URL holds a user name or password: pass them with -H 'Authorization: …' instead.",
      )
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
    // The value is not repeated: it is often a token.
    if (colon <= 0)
      throw new UsageError(
        "--header takes 'name: value', a colon after the name (e.g. -H 'Authorization: Bearer <token>').",
      )
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
