/** HTTP benchmark cases (bench/requests/cases.json) and the JSON-RPC answer check they share. */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'

export interface HttpCase {
  kind: 'http'
  name: string
  era: string
  default: boolean
  path: string
  /** Exact request headers: the common ones plus the case's own. */
  headers: Record<string, string>
  /** Exact POST body, byte for byte as in the request file. */
  body: string
  /** The JSON-RPC id the body carries (to find the answer in an SSE response). */
  id: unknown
}

interface CasesFile {
  path: string
  common_headers: Record<string, string>
  cases: Record<string, { default?: boolean; era: string; body: string; headers: Record<string, string> }>
}

export function loadHttpCases(requestsDir: string): Map<string, HttpCase> {
  const file = JSON.parse(readFileSync(join(requestsDir, 'cases.json'), 'utf8')) as CasesFile
  const cases = new Map<string, HttpCase>()
  for (const [name, c] of Object.entries(file.cases)) {
    const body = readFileSync(join(requestsDir, c.body), 'utf8')
    cases.set(name, {
      kind: 'http',
      name,
      era: c.era,
      default: c.default === true,
      path: file.path,
      headers: { ...file.common_headers, ...c.headers },
      body,
      id: (JSON.parse(body) as { id?: unknown }).id,
    })
  }
  return cases
}

/**
 * Checks one HTTP answer to a JSON-RPC request: status 200 and a JSON-RPC `result` (not an
 * `error`) for `id`, in a JSON body or in an SSE stream. Returns the result; throws otherwise.
 */
export function expectJsonRpcResult(
  status: number,
  contentType: string | null,
  text: string,
  id: unknown,
): unknown {
  const fail = (why: string): never => {
    throw new Error(`${why}; HTTP ${status} ${contentType ?? '(no content-type)'}: ${text.slice(0, 300)}`)
  }
  let messages: unknown[] = []
  try {
    if (contentType?.startsWith('text/event-stream')) {
      for (const event of text.split(/\r?\n\r?\n/)) {
        const data = event
          .split(/\r?\n/)
          .filter((l) => l.startsWith('data:'))
          .map((l) => l.slice(5).replace(/^ /, ''))
          .join('\n')
        if (data) messages.push(JSON.parse(data))
      }
    } else {
      const parsed = JSON.parse(text) as unknown
      messages = Array.isArray(parsed) ? parsed : [parsed]
    }
  } catch {
    fail('the body is not JSON / SSE JSON')
  }
  const answer = messages.find(
    (m): m is { result?: unknown; error?: unknown } =>
      typeof m === 'object' && m !== null && (m as { id?: unknown }).id === id,
  )
  if (!answer) return fail(`no JSON-RPC response with id ${JSON.stringify(id)}`)
  if (answer.error !== undefined) return fail('JSON-RPC error')
  if (answer.result === undefined || answer.result === null) return fail('no JSON-RPC result')
  if (status !== 200) return fail('status is not 200')
  return answer.result
}
