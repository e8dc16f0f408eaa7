/**
 * The ceiling on a runtime's own server (`Bun.serve`, `Deno.serve`): a fetch handler that reads
 * the body and answers the canned result (`canned-answers.ts`), as `raw.ts` does on node:http.
 */
import { cannedAnswer } from './canned-answers.ts'

const JSON_HEADERS = { 'content-type': 'application/json' }

export async function handler(request: Request): Promise<Response> {
  const { status, text } = cannedAnswer(await request.text())
  return new Response(text, { status, headers: JSON_HEADERS })
}
