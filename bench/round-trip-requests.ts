/**
 * The requests of a multi round trip to `bench/servers/tessera-mrtr.ts`, shared by `bench:mrtr`
 * and `bench:instructions`: a `tools/call` of one of its tools, the accepted answer to its
 * question, and the text a confirmed answer carries.
 */
const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': { elicitation: {} },
}

/** The headers of a `tools/call` of `name`, its name mirrored. */
export const headersFor = (name: string): Record<string, string> => ({
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': '2026-07-28',
  'mcp-method': 'tools/call',
  'mcp-name': name,
})

/** The body of a `tools/call` of `name` on 'hello world', with `extra` params (answers, state). */
export const call = (name: string, extra: Record<string, unknown> = {}): string =>
  JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: { name, arguments: { text: 'hello world' }, ...extra, _meta: META },
  })

/** The accepted answer to the `confirm` question the asking tools put. */
export const ANSWERS = { confirm: { action: 'accept', content: { ok: true } } }

/** What an answered round trip's result holds. */
export const CONFIRMED = 'confirmed hello world'
