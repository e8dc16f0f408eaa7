// The startup ceiling: plain node:http answering one canned JSON-RPC result, in plain
// JavaScript. Prints `READY <port>` once it listens.
import { createServer } from 'node:http'

const server = createServer((req, res) => {
  const chunks = []
  req.on('data', (chunk) => chunks.push(chunk))
  req.on('end', () => {
    const { id } = JSON.parse(Buffer.concat(chunks).toString())
    const body = JSON.stringify({ jsonrpc: '2.0', id, result: { content: [{ type: 'text', text: 'ok' }] } })
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) })
    res.end(body)
  })
})
server.listen(0, '127.0.0.1', () => console.log(`READY ${server.address().port}`))
