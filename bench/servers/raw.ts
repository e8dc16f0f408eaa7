/**
 * The ceiling: plain node:http that reads the body, JSON.parses it, dispatches on `method` and
 * JSON.stringifies a canned result of the same shape and size as a real 2026-07-28 answer
 * (the official SDK's answers for the same tool and resource). No MCP validation at all.
 */
import { createServer } from 'node:http'

const meta = { 'io.modelcontextprotocol/serverInfo': { name: 'bench', version: '1.0.0' } }
const results: Record<string, unknown> = {
  'tools/call': { content: [{ type: 'text', text: 'hello world' }], resultType: 'complete', _meta: meta },
  'tools/list': {
    tools: [
      {
        name: 'echo',
        description: 'Echo the text back',
        inputSchema: {
          type: 'object',
          $schema: 'https://json-schema.org/draft/2020-12/schema',
          properties: { text: { type: 'string' } },
          required: ['text'],
        },
      },
    ],
    resultType: 'complete',
    ttlMs: 0,
    cacheScope: 'private',
    _meta: meta,
  },
  'server/discover': {
    supportedVersions: ['2026-07-28'],
    capabilities: { tools: { listChanged: true }, resources: { listChanged: true } },
    resultType: 'complete',
    ttlMs: 0,
    cacheScope: 'private',
    _meta: meta,
  },
  'resources/read': {
    contents: [{ uri: 'bench://greeting', mimeType: 'text/plain', text: 'hello' }],
    resultType: 'complete',
    ttlMs: 0,
    cacheScope: 'private',
    _meta: meta,
  },
}

const server = createServer((req, res) => {
  const chunks: Buffer[] = []
  req.on('data', (c: Buffer) => chunks.push(c))
  req.on('end', () => {
    let status = 200
    let answer: unknown
    try {
      const msg = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { id?: unknown; method?: string }
      const result = msg.method === undefined ? undefined : results[msg.method]
      if (result === undefined) {
        status = 404
        answer = { jsonrpc: '2.0', id: msg.id ?? null, error: { code: -32601, message: 'Method not found' } }
      } else {
        answer = { jsonrpc: '2.0', id: msg.id, result }
      }
    } catch {
      status = 400
      answer = { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } }
    }
    const body = JSON.stringify(answer)
    res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) })
    res.end(body)
  })
})

server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  const addr = server.address()
  console.log(`READY ${typeof addr === 'object' && addr ? addr.port : ''}`)
})
