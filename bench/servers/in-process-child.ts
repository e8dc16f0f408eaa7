/**
 * One measurement of `npm run bench:in-process`, on whichever runtime runs this file: the fetch
 * handler `BENCH_HANDLER` names answers `BENCH_REQUESTS` requests of the case in
 * `BENCH_CASE` (a JSON `{ url, headers, body }`) one after the other, in `BENCH_BLOCKS` timed
 * blocks after as many warm-up requests. Building the `Request`s is timed apart and taken out.
 * Prints one `RESULT {…}` line: microseconds a request in each block.
 */
const handlerFile = process.env.BENCH_HANDLER
const sent = process.env.BENCH_CASE
if (handlerFile === undefined || sent === undefined) throw new Error('run through `npm run bench:in-process`')
const requests = Number(process.env.BENCH_REQUESTS ?? 20_000)
const blocks = Number(process.env.BENCH_BLOCKS ?? 8)
const { url, headers, body } = JSON.parse(sent) as {
  url: string
  headers: Record<string, string>
  body: string
}
const { handler } = (await import(handlerFile)) as { handler: (request: Request) => Promise<Response> }

const build = (): Request => new Request(url, { method: 'POST', headers, body })

async function answer(): Promise<number> {
  const response = await handler(build())
  const text = await response.text()
  if (response.status !== 200) throw new Error(`HTTP ${response.status}: ${text.slice(0, 200)}`)
  return text.length
}

let bytes = 0
for (let i = 0; i < requests; i++) bytes += await answer()
const buildStart = performance.now()
for (let i = 0; i < requests; i++) build()
const buildMs = performance.now() - buildStart
const perRequest: number[] = []
for (let b = 0; b < blocks; b++) {
  const start = performance.now()
  for (let i = 0; i < requests; i++) bytes += await answer()
  perRequest.push(((performance.now() - start - buildMs) * 1000) / requests)
}
console.log(`RESULT ${JSON.stringify({ perRequest, bytes })}`)
