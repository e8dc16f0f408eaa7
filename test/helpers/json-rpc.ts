/**
 * @module json-rpc
 * What every test client speaks in, whatever the era: a JSON object (a JSON-RPC message, its
 * params or a result), a JSON-RPC id, fresh ids, and the text of a tool result.
 */

export type Json = Record<string, unknown>
export type RpcId = string | number

let nextId = 1
/** A request id no other request of this test process uses. */
export function freshId(): number {
  return nextId++
}

/** The text blocks of a tool result, joined by newlines. */
export function textOf(result: Json): string {
  const content = (result.content as Array<{ type: string; text?: string }> | undefined) ?? []
  return content
    .filter((block) => block.type === 'text')
    .map((block) => block.text)
    .join('\n')
}
