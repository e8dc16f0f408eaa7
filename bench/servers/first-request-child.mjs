// The profiled process of `bench/first-request.ts`, in plain JavaScript so that no loader runs
// with it: evaluates the bundle at argv[2] (which builds its server), then answers one tools/call
// through its `fetch`, each phase under V8's sampling profiler, and prints both phases' CPU and
// profiles as JSON.
import { Session } from 'node:inspector/promises'
import { pathToFileURL } from 'node:url'

const url = pathToFileURL(process.argv[2]).href
const session = new Session()
session.connect()
await session.post('Profiler.enable')
await session.post('Profiler.setSamplingInterval', { interval: 50 })

async function phase(work) {
  await session.post('Profiler.start')
  const before = process.cpuUsage()
  const value = await work()
  const used = process.cpuUsage(before)
  const { profile } = await session.post('Profiler.stop')
  return [value, { cpuMs: (used.user + used.system) / 1000, profile }]
}

const meta = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '1.0.0' },
}
const request = new Request('http://127.0.0.1/mcp', {
  method: 'POST',
  headers: {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': '2026-07-28',
    'mcp-method': 'tools/call',
    'mcp-name': 'greet',
  },
  body: JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: { name: 'greet', arguments: { name: 'Ada' }, _meta: meta },
  }),
})
// Node's own fetch machinery loads lazily: touch it first, so the answer's profile is the bundle's.
await new Response('warm').text()

const [worker, evaluation] = await phase(() => import(url))
const [, answer] = await phase(async () => {
  const text = await (await worker.default.fetch(request)).text()
  if (!text.includes('Hello')) throw new Error(`unexpected answer: ${text}`)
})
process.stdout.write(JSON.stringify({ url, evaluation, answer }))
