/**
 * `npm run bench:answers`: writes `bench/requests/answers.json`, the results Tessera's bench server
 * gives to each 2026-07-28 HTTP case, which the raw server answers byte for byte. Run it when the
 * bench app or Tessera's encoding changes; `npm run bench` refuses to measure when raw's answer
 * and Tessera's differ.
 */
import { writeFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { listen } from '@tessera/core/http'
import { loadHttpCases } from './cases.ts'
import { benchApp } from './servers/tessera-app.ts'

const BENCH = dirname(fileURLToPath(import.meta.url))
const FILE = resolve(BENCH, 'requests/answers.json')

const server = await listen(benchApp(), { host: '127.0.0.1', port: 0 })
try {
  const answers: Record<string, unknown> = {}
  for (const c of loadHttpCases(join(BENCH, 'requests')).values()) {
    if (c.era !== '2026-07-28') continue
    const response = await fetch(`http://127.0.0.1:${server.port}${c.path}`, {
      method: 'POST',
      headers: c.headers,
      body: c.body,
    })
    const answer = (await response.json()) as { result?: unknown }
    if (response.status !== 200 || answer.result === undefined)
      throw new Error(`${c.name}: HTTP ${response.status} ${JSON.stringify(answer).slice(0, 300)}`)
    answers[(JSON.parse(c.body) as { method: string }).method] = answer.result
  }
  writeFileSync(FILE, `${JSON.stringify(answers, null, 1)}\n`)
  console.log(`bench: wrote ${Object.keys(answers).join(', ')} to bench/requests/answers.json`)
} finally {
  await server.close()
}
