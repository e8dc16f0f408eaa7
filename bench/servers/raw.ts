/**
 * The ceiling: plain node:http that reads the body, JSON.parses it, dispatches on `method` and
 * JSON.stringifies a canned result: the very result Tessera gives to the same request, so both
 * answer the same bytes. No MCP validation at all.
 *
 * With `BENCH_BUSY_US` set it also spins that many microseconds of CPU per request before it
 * answers (`raw-busy`): the same bytes and system calls from a slower server, to see what being
 * slower costs in the kernel alone.
 */
import { createServer } from 'node:http'
import { cannedAnswer } from './canned-answers.ts'

const busyMs = Number(process.env.BENCH_BUSY_US ?? 0) / 1000

const server = createServer((req, res) => {
  const chunks: Buffer[] = []
  req.on('data', (c: Buffer) => chunks.push(c))
  req.on('end', () => {
    const { status, text } = cannedAnswer(Buffer.concat(chunks).toString('utf8'))
    if (busyMs > 0) spin(busyMs)
    res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) })
    res.end(text)
  })
})

function spin(ms: number): void {
  const until = performance.now() + ms
  while (performance.now() < until);
}

server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  const addr = server.address()
  console.log(`READY ${typeof addr === 'object' && addr ? addr.port : ''}`)
})
