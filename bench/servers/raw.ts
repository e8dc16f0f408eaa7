/**
 * The ceiling: plain node:http that reads the body, JSON.parses it, dispatches on `method` and
 * JSON.stringifies a canned result: the very result Tessera gives to the same request, so both
 * answer the same bytes. No MCP validation at all.
 */
import { readFileSync } from 'node:fs'
import { createServer } from 'node:http'
import { fileURLToPath } from 'node:url'

// Tessera's own results for the bench cases, captured by `npm run bench:answers`.
const answersFile = fileURLToPath(new URL('../requests/answers.json', import.meta.url))
const results = JSON.parse(readFileSync(answersFile, 'utf8')) as Record<string, unknown>

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
