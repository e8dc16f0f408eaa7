/**
 * The ceiling's answers: Tessera's own results for the bench cases (captured by
 * `npm run bench:answers`), so a raw server answers the same bytes Tessera does. The body is
 * JSON.parsed and dispatched on `method`; no MCP validation at all.
 */
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

const answersFile = fileURLToPath(new URL('../requests/answers.json', import.meta.url))
const results = JSON.parse(readFileSync(answersFile, 'utf8')) as Record<string, unknown>

/** The status and JSON text a raw server answers `body` with. */
export function cannedAnswer(body: string): { status: number; text: string } {
  let status = 200
  let answer: unknown
  try {
    const msg = JSON.parse(body) as { id?: unknown; method?: string }
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
  return { status, text: JSON.stringify(answer) }
}
