/**
 * @module mcp-client
 * The console's own MCP client: a 2026-07-28 client over `fetch` to the endpoint of the server
 * that serves the page (same origin). Every request carries the `_meta` envelope, the mirrored
 * headers (`Mcp-Method`, `Mcp-Name`, and a tool's `Mcp-Param-*`), declares form elicitation, so
 * the page can answer a tool's questions itself, and MCP Apps, as it renders a tool's view; and,
 * once the person pasted one, it carries the access token as `Authorization: Bearer`. A request
 * never throws: what went wrong (no answer, a refusal, a body that is not JSON-RPC) comes back in
 * the outcome, with the challenge of a refusal, for the page to put in words.
 */
import {
  APPS_EXTENSION,
  encodeHeaderValue,
  MODERN_VERSION,
  paramHeaders,
  VIEW_MIME_TYPE,
} from '@tessera/core/protocol'

export type Json = Record<string, unknown>

export interface Tool {
  name: string
  title?: string
  description?: string
  inputSchema: Json
  /** Its metadata: `ui.resourceUri` names the view it is shown with (MCP Apps). */
  _meta?: Json
}

export interface RpcOutcome {
  /** The HTTP status; 0 when no answer came at all. */
  status: number
  /** The status's reason phrase, as the server sent it. */
  statusText: string
  /** Whether the status is a success (2xx). */
  ok: boolean
  result?: Json
  error?: { code: number; message: string; data?: unknown }
  /** The `WWW-Authenticate` header of the answer, when it had one. */
  challenge?: string
  /** Whether the request carried the access token. */
  withToken: boolean
  /** Why there is neither a result nor an error: the server was not reached, or its body is none. */
  problem?: string
}

/** What an outcome is when the request could not even be made or answered. */
export function unanswered(problem: string, withToken: boolean): RpcOutcome {
  return { status: 0, statusText: '', ok: false, withToken, problem }
}

// The console answers form questions and renders views (MCP Apps), so it declares both.
const CAPABILITIES = {
  elicitation: { form: {} },
  extensions: { [APPS_EXTENSION]: { mimeTypes: [VIEW_MIME_TYPE] } },
}
const NAMED: Record<string, string> = { 'tools/call': 'name', 'prompts/get': 'name', 'resources/read': 'uri' }
let nextId = 1

export class ConsoleClient {
  readonly #endpoint: string
  readonly #token: string | undefined

  /** `token`: an access token (checked with `checkedToken`), sent on every request. */
  constructor(endpoint: string, token?: string) {
    this.#endpoint = endpoint
    this.#token = token
  }

  get hasToken(): boolean {
    return this.#token !== undefined
  }

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
    if (this.#token !== undefined) headers.authorization = `Bearer ${this.#token}`
    const withToken = this.#token !== undefined
    let response: Response
    let text: string
    try {
      response = await fetch(this.#endpoint, {
        method: 'POST',
        headers,
        body: JSON.stringify({ jsonrpc: '2.0', id: nextId++, method, params: full }),
      })
      text = await response.text()
    } catch (error) {
      const cause = (error as Error).cause
      const why = cause instanceof Error ? `${(error as Error).message}: ${cause.message}` : String(error)
      return unanswered(`the request did not reach the server (${why})`, withToken)
    }
    const challenge = response.headers.get('www-authenticate') ?? undefined
    const outcome: RpcOutcome = {
      status: response.status,
      statusText: response.statusText,
      ok: response.ok,
      withToken,
      ...(challenge === undefined ? {} : { challenge }),
    }
    const message = lastMessage(text, response.headers.get('content-type') ?? '')
    if (message !== undefined) return redactToken({ ...outcome, ...message }, this.#token)
    const shown = text.length > 200 ? `${text.slice(0, 200)}…` : text
    const problem = text === '' ? 'the answer has no body' : `the answer is not JSON-RPC: ${shown}`
    return redactToken({ ...outcome, problem }, this.#token)
  }

  /** `tools/call` with the tool's `Mcp-Param-*` mirrors, and with what a later round carries. */
  async callTool(tool: Tool, args: Json, round: Json = {}): Promise<RpcOutcome> {
    let mirrors: Record<string, string>
    try {
      mirrors = paramHeaders(tool, args)
    } catch (error) {
      return unanswered(`the console cannot call this tool: ${(error as Error).message}`, this.hasToken)
    }
    return this.request('tools/call', { name: tool.name, arguments: args, ...round }, mirrors)
  }

  /**
   * Every page of a list method (`tools/list`, `resources/list`, `resources/templates/list`,
   * `prompts/list`), or the outcome of the first page that brought no result.
   */
  async list<T>(method: string, field: string): Promise<{ items: T[]; refused?: RpcOutcome }> {
    const items: T[] = []
    let cursor: string | undefined
    do {
      const outcome = await this.request(method, cursor === undefined ? {} : { cursor })
      if (outcome.result === undefined) return { items, refused: outcome }
      items.push(...((outcome.result[field] as T[] | undefined) ?? []))
      cursor = outcome.result.nextCursor as string | undefined
    } while (cursor !== undefined)
    return { items }
  }
}

type Answer = Pick<RpcOutcome, 'result' | 'error'>

/** The JSON-RPC answer: the body, or the last answer of an SSE stream; undefined when there is none. */
function lastMessage(text: string, contentType: string): Answer | undefined {
  if (!contentType.startsWith('text/event-stream')) return answerIn(text)
  let last: Answer | undefined
  for (const block of text.split('\n\n')) {
    const data = block
      .split('\n')
      .filter((line) => line.startsWith('data:'))
      .map((line) => line.slice(5).trimStart())
      .join('\n')
    last = (data === '' ? undefined : answerIn(data)) ?? last
  }
  return last
}

/** A JSON-RPC response's result or error, read from `text`; undefined when it holds neither. */
function answerIn(text: string): Answer | undefined {
  let message: unknown
  try {
    message = JSON.parse(text)
  } catch {
    return undefined
  }
  if (typeof message !== 'object' || message === null) return undefined
  const { result, error } = message as { result?: unknown; error?: unknown }
  if (isObject(result)) return { result }
  if (isObject(error) && typeof error.code === 'number' && typeof error.message === 'string')
    return { error: { code: error.code, message: error.message, data: error.data } }
  return undefined
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/**
 * `value` with every copy of `token` in its strings replaced by `…` (names are left alone, so a
 * short token cannot break the shape of a message).
 */
export function redactToken<T>(value: T, token: string | undefined): T {
  if (token === undefined) return value
  const redact = (item: unknown): unknown => {
    if (typeof item === 'string') return item.split(token).join('…')
    if (Array.isArray(item)) return item.map(redact)
    if (typeof item === 'object' && item !== null)
      return Object.fromEntries(Object.entries(item).map(([name, inner]) => [name, redact(inner)]))
    return item
  }
  return redact(value) as T
}

const TOKEN68 = /^[A-Za-z0-9\-._~+/]+=*$/

/**
 * The token a person pasted, ready for `Authorization: Bearer`: trimmed, without a leading
 * `Bearer `; or the reason it cannot be one (RFC 6750 allows letters, digits and `-._~+/`, then
 * `=` padding).
 */
export function checkedToken(pasted: string): { token: string } | { problem: string } {
  const token = pasted.trim().replace(/^bearer\s+/i, '')
  if (token === '') return { problem: 'Paste a token first.' }
  if (TOKEN68.test(token)) return { token }
  const bad = [...token].find((c, i) => !TOKEN68.test(c) && !(c === '=' && /^=*$/.test(token.slice(i))))
  const shown =
    bad === undefined ? '' : /\s/.test(bad) ? ' (it holds a space or a line break)' : ` (it holds “${bad}”)`
  return {
    problem: `That is not a bearer token${shown}: a token is letters, digits and - . _ ~ + /, then = padding.`,
  }
}
