/**
 * @module mcp-client
 * The smallest 2026-07-28 HTTP client the tests need: every POST carries the standard headers
 * (protocol version, method, and the name for the three addressed methods) and the `_meta`
 * envelope, so a test states only what it is about. Answers and states are passed verbatim,
 * because re-sending them unchanged is exactly what the replay tests do.
 */

export const PROTOCOL_VERSION = '2026-07-28'

export interface JsonRpcError {
  code: number
  message: string
  data?: unknown
}

export interface McpReply<R = Record<string, unknown>> {
  status: number
  headers: Headers
  result?: R
  error?: JsonRpcError
}

export interface ToolResult {
  resultType: string
  content?: Array<{ type: string; text?: string; uri?: string }>
  structuredContent?: Record<string, unknown>
  isError?: boolean
  inputRequests?: Record<string, { method: string; params: Record<string, unknown> }>
  requestState?: string
}

/** A task, as a tool call that became one answers and as `tasks/get` reads it. */
export interface Task {
  taskId: string
  status: string
  resultType?: string
  statusMessage?: string
  result?: ToolResult
}

/** Whether a result is a task: it names one and gives its status. */
export function isTask(result: unknown): result is Task {
  return (
    typeof result === 'object' &&
    result !== null &&
    'taskId' in result &&
    typeof result.taskId === 'string' &&
    'status' in result &&
    typeof result.status === 'string'
  )
}

/** The task a reply answers with; throws, quoting the reply, when it answers anything else. */
export function taskOf(reply: McpReply<unknown>): Task {
  if (!isTask(reply.result))
    throw new Error(`expected a task, got ${JSON.stringify(reply.result ?? reply.error)}`)
  return reply.result
}

/** Capabilities of a client that answers forms and takes tasks. */
export const TASK_CAPABILITIES = { elicitation: {}, extensions: { 'io.modelcontextprotocol/tasks': {} } }

export interface ClientOptions {
  /** The client capabilities declared in every `_meta` (default: form elicitation). */
  capabilities?: Record<string, unknown>
  clientInfo?: { name: string; version: string }
  /** Sent with every request (an `Authorization` header). */
  headers?: Record<string, string>
}

const ADDRESSED: Readonly<Record<string, 'name' | 'uri' | 'taskId'>> = {
  'tools/call': 'name',
  'prompts/get': 'name',
  'resources/read': 'uri',
  'tasks/get': 'taskId',
  'tasks/update': 'taskId',
  'tasks/cancel': 'taskId',
}

export class McpClient {
  private nextId = 1

  constructor(
    readonly url: string,
    private readonly options: ClientOptions = {},
  ) {}

  async request<R = Record<string, unknown>>(
    method: string,
    params: Record<string, unknown> = {},
  ): Promise<McpReply<R>> {
    const meta: Record<string, unknown> = {
      'io.modelcontextprotocol/protocolVersion': PROTOCOL_VERSION,
      'io.modelcontextprotocol/clientCapabilities': this.options.capabilities ?? { elicitation: {} },
    }
    if (this.options.clientInfo) meta['io.modelcontextprotocol/clientInfo'] = this.options.clientInfo
    const headers: Record<string, string> = {
      'Content-Type': 'application/json',
      Accept: 'application/json, text/event-stream',
      'MCP-Protocol-Version': PROTOCOL_VERSION,
      'Mcp-Method': method,
      ...this.options.headers,
    }
    const field = ADDRESSED[method]
    if (field !== undefined && typeof params[field] === 'string')
      headers['Mcp-Name'] = headerValue(params[field])
    const id = this.nextId++
    const response = await fetch(this.url, {
      method: 'POST',
      headers,
      body: JSON.stringify({ jsonrpc: '2.0', id, method, params: { ...params, _meta: meta } }),
    })
    const body = (await readBody(response)) as { result?: R; error?: JsonRpcError }
    return { status: response.status, headers: response.headers, result: body.result, error: body.error }
  }

  discover() {
    return this.request('server/discover')
  }

  listTools() {
    return this.request<{
      tools: Array<{ name: string; inputSchema: Record<string, unknown> }>
      ttlMs: number
      cacheScope: string
    }>('tools/list')
  }

  /** `extra` carries `inputResponses` and `requestState` on a retry, unchanged. */
  callTool(name: string, args: Record<string, unknown>, extra: Record<string, unknown> = {}) {
    return this.request<ToolResult>('tools/call', { name, arguments: args, ...extra })
  }

  readResource(uri: string) {
    return this.request<{
      contents: Array<{ uri: string; mimeType?: string; text?: string }>
      ttlMs: number
      cacheScope: string
    }>('resources/read', { uri })
  }

  getPrompt(name: string, args: Record<string, string>) {
    return this.request<{ messages: Array<{ role: string; content: Record<string, unknown> }> }>(
      'prompts/get',
      {
        name,
        arguments: args,
      },
    )
  }

  complete(ref: Record<string, unknown>, argument: { name: string; value: string }) {
    return this.request<{ completion: { values: string[]; total?: number; hasMore?: boolean } }>(
      'completion/complete',
      {
        ref,
        argument,
      },
    )
  }
}

/** An elicitation answer as the client sends it back under `inputResponses`. */
export function answer(
  action: 'accept' | 'decline' | 'cancel',
  content?: Record<string, unknown>,
): Record<string, unknown> {
  return content === undefined ? { action } : { action, content }
}

/**
 * Asks for a rollback of `service` (the question round) and gives the versions it offers and the
 * retry that accepts one of them (the newest by default), with the state echoed as it came.
 */
export async function askRollback(
  client: McpClient,
  service: string,
): Promise<{ offered: string[]; accept(version?: string): Record<string, unknown> }> {
  const ask = (await client.callTool('rollback', { service })).result as ToolResult
  if (ask.resultType !== 'input_required')
    throw new Error(`rollback of ${service} did not ask: ${textOf(ask)}`)
  const schema = ask.inputRequests!.version!.params.requestedSchema as {
    properties: { version: { enum: string[] } }
  }
  const offered = schema.properties.version.enum
  return {
    offered,
    accept: (version = offered[0]!) => ({
      inputResponses: { version: answer('accept', { version }) },
      requestState: ask.requestState,
    }),
  }
}

/** The text of a tool result's content blocks, joined: what a model would read. */
export function textOf(result: ToolResult | undefined): string {
  return (result?.content ?? []).map((c) => c.text ?? '').join('\n')
}

// Values outside visible ASCII travel Base64-encoded (the `=?base64?…?=` sentinel).
function headerValue(value: string): string {
  return /^[\x21-\x7e]([\x20-\x7e]*[\x21-\x7e])?$/.test(value) && !value.startsWith('=?base64?')
    ? value
    : `=?base64?${Buffer.from(value, 'utf8').toString('base64')}?=`
}

async function readBody(response: Response): Promise<unknown> {
  const text = await response.text()
  if (!(response.headers.get('content-type') ?? '').includes('text/event-stream')) return JSON.parse(text)
  // An SSE reply ends with the response; notifications before it are not what these tests read.
  const events = text
    .split('\n')
    .filter((l) => l.startsWith('data:'))
    .map((l) => JSON.parse(l.slice(5)) as Record<string, unknown>)
  return events.reverse().find((e) => 'result' in e || 'error' in e) ?? {}
}
