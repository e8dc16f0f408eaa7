/**
 * @module mcp-client
 * The console's own MCP client: a 2026-07-28 client over `fetch` to the endpoint of the server
 * that serves the page (same origin). Every request carries the `_meta` envelope, the mirrored
 * headers (`Mcp-Method`, `Mcp-Name`, and a tool's `Mcp-Param-*`), and declares form elicitation,
 * so the page can answer a tool's questions itself.
 */
import { encodeHeaderValue, MODERN_VERSION, paramHeaders } from '@tessera/core/protocol'

export type Json = Record<string, unknown>

export interface Tool {
  name: string
  title?: string
  description?: string
  inputSchema: Json
}

export interface RpcOutcome {
  result?: Json
  error?: { code: number; message: string }
  status: number
}

const CAPABILITIES = { elicitation: { form: {} } }
const NAMED: Record<string, string> = { 'tools/call': 'name', 'prompts/get': 'name', 'resources/read': 'uri' }
let nextId = 1

export class ConsoleClient {
  constructor(private readonly endpoint: string) {}

  async request(
    method: string,
    params: Json = {},
    extraHeaders: Record<string, string> = {},
  ): Promise<RpcOutcome> {
    const full = {
      ...params,
      _meta: {
        'io.modelcontextprotocol/protocolVersion': MODERN_VERSION,
        'io.modelcontextprotocol/clientCapabilities': CAPABILITIES,
        'io.modelcontextprotocol/clientInfo': { name: 'tessera-dev-console', version: '1' },
      },
    }
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': MODERN_VERSION,
      'mcp-method': method,
      ...extraHeaders,
    }
    const named = NAMED[method]
    const target = named === undefined ? undefined : full[named as keyof typeof full]
    if (typeof target === 'string') headers['mcp-name'] = encodeHeaderValue(target)
    const response = await fetch(this.endpoint, {
      method: 'POST',
      headers,
      body: JSON.stringify({ jsonrpc: '2.0', id: nextId++, method, params: full }),
    })
    const message = await lastMessage(response)
    return { status: response.status, ...(message as { result?: Json; error?: RpcOutcome['error'] }) }
  }

  /** `tools/call` with the tool's `Mcp-Param-*` mirrors, and with what a later round carries. */
  callTool(tool: Tool, args: Json, round: Json = {}): Promise<RpcOutcome> {
    return this.request(
      'tools/call',
      { name: tool.name, arguments: args, ...round },
      paramHeaders(tool, args),
    )
  }

  /** Every page of a list method (`tools/list`, `resources/list`, `prompts/list`). */
  async list<T>(method: string, field: string): Promise<T[]> {
    const items: T[] = []
    let cursor: string | undefined
    do {
      const outcome = await this.request(method, cursor === undefined ? {} : { cursor })
      if (outcome.result === undefined) break
      items.push(...((outcome.result[field] as T[] | undefined) ?? []))
      cursor = outcome.result.nextCursor as string | undefined
    } while (cursor !== undefined)
    return items
  }
}

/** The JSON-RPC message that answers: the body, or the last message of an SSE stream. */
async function lastMessage(response: Response): Promise<Json> {
  const text = await response.text()
  if (!(response.headers.get('content-type') ?? '').startsWith('text/event-stream'))
    return JSON.parse(text) as Json
  let last: Json = {}
  for (const block of text.split('\n\n')) {
    const data = block
      .split('\n')
      .filter((line) => line.startsWith('data:'))
      .map((line) => line.slice(5).trimStart())
      .join('\n')
    if (data === '') continue
    const message = JSON.parse(data) as Json
    if ('result' in message || 'error' in message) last = message
  }
  return last
}
