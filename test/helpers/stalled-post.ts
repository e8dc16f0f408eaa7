/**
 * @module stalled-post
 * A POST whose body never finishes: the headers promise 100 bytes, ten arrive, then nothing. Sent
 * over a raw socket, since a fetch client cannot stall its own body this way; and any request
 * written line by line, for what a fetch client will not send.
 */
import { connect } from 'node:net'

export interface StalledReply {
  status: number
  headers: Record<string, string>
  body: string
}

export function stalledPost(url: string, headers: Record<string, string> = {}): Promise<StalledReply> {
  const { hostname, port, pathname } = new URL(url)
  const lines = [
    `POST ${pathname} HTTP/1.1`,
    `host: ${hostname}:${port}`,
    'content-type: application/json',
    'accept: application/json, text/event-stream',
    'content-length: 100',
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
  ]
  return exchange(url, `${lines.join('\r\n')}\r\n\r\n{"jsonrpc"`)
}

/**
 * One request written as given, header lines and all (so a header can be sent twice, or a `Host`
 * no fetch client would send), with `connection: close`; resolves with the reply once the server
 * closes the connection.
 */
export function rawRequest(url: string, headerLines: string[], body = ''): Promise<StalledReply> {
  const { pathname } = new URL(url)
  const lines = [
    `POST ${pathname} HTTP/1.1`,
    ...headerLines,
    'connection: close',
    `content-length: ${Buffer.byteLength(body)}`,
  ]
  return exchange(url, `${lines.join('\r\n')}\r\n\r\n${body}`)
}

/** Writes `text` on a new connection and resolves with the reply once the server closes it. */
function exchange(url: string, text: string): Promise<StalledReply> {
  const { hostname, port } = new URL(url)
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname)
    let raw = ''
    socket.setEncoding('utf8')
    socket.on('data', (chunk: string) => {
      raw += chunk
    })
    socket.once('error', reject)
    socket.once('close', () => resolve(parseResponse(raw)))
    socket.write(text)
  })
}

function parseResponse(raw: string): StalledReply {
  const split = raw.indexOf('\r\n\r\n')
  if (split === -1) throw new Error(`no HTTP response before the connection closed: ${JSON.stringify(raw)}`)
  const [statusLine, ...headerLines] = raw.slice(0, split).split('\r\n')
  const headers: Record<string, string> = {}
  for (const line of headerLines) {
    const colon = line.indexOf(':')
    headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim()
  }
  let body = raw.slice(split + 4)
  if (headers['transfer-encoding'] === 'chunked') body = unchunk(body)
  return { status: Number(statusLine!.split(' ')[1]), headers, body }
}

function unchunk(body: string): string {
  let out = ''
  let rest = body
  for (;;) {
    const eol = rest.indexOf('\r\n')
    const size = Number.parseInt(rest.slice(0, eol), 16)
    if (!(size > 0)) return out
    out += rest.slice(eol + 2, eol + 2 + size)
    rest = rest.slice(eol + 2 + size + 2)
  }
}

const DISCOVER_BODY = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'server/discover',
  params: {
    _meta: {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientCapabilities': {},
    },
  },
})
const DISCOVER_HEADERS = [
  'content-type: application/json',
  'accept: application/json, text/event-stream',
  'mcp-protocol-version: 2026-07-28',
  'mcp-method: server/discover',
]

/** A 2026-07-28 `server/discover` written line by line, with `headerLines` (a Host, an Origin) first. */
export function rawDiscover(url: string, headerLines: string[]): Promise<StalledReply> {
  return rawRequest(url, [...headerLines, ...DISCOVER_HEADERS], DISCOVER_BODY)
}

/** The message of the JSON-RPC error a raw reply's body holds; undefined when it holds none. */
export function rawErrorMessage(body: string): string | undefined {
  return (JSON.parse(body) as { error?: { message: string } }).error?.message
}
