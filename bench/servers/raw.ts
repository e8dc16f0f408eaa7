/**
 * The ceiling: plain node:http that reads the body, JSON.parses it, dispatches on `method` and
 * JSON.stringifies a canned result: the very result Tessera gives to the same request, so both
 * answer the same bytes. No MCP validation at all.
 */
import { createServer } from 'node:http'
import { cannedAnswer } from './canned-answers.ts'

const server = createServer((req, res) => {
  const chunks: Buffer[] = []
  req.on('data', (c: Buffer) => chunks.push(c))
  req.on('end', () => {
    const { status, text } = cannedAnswer(Buffer.concat(chunks).toString('utf8'))
    res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) })
    res.end(text)
  })
})

server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  const addr = server.address()
  console.log(`READY ${typeof addr === 'object' && addr ? addr.port : ''}`)
})
