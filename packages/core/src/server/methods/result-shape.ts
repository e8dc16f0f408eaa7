/**
 * @module result-shape
 * What a handler returned, checked before it goes on the wire: a tool result needs a `content`
 * array of known blocks, a prompt result `messages`, a resource result `contents`. A value that
 * is none of these is a bug in the handler, reported by name, never sent as invalid MCP.
 */

/** Why `value` is not a tool result, or undefined when it is one. */
export function toolResultFault(value: unknown): string | undefined {
  if (!isObject(value)) return `it returned ${kindOf(value)}, not a string or { content: [...] }`
  if (!Array.isArray(value.content)) return 'its result has no content array'
  return blocksFault(value.content, 'content')
}

/** Why `value` is not a prompt result, or undefined when it is one. */
export function promptResultFault(value: unknown): string | undefined {
  if (!isObject(value)) return `it returned ${kindOf(value)}, not { messages: [...] }`
  if (!Array.isArray(value.messages)) return 'its result has no messages array'
  for (const [i, message] of value.messages.entries()) {
    if (!isObject(message)) return `messages[${i}] is not an object`
    if (message.role !== 'user' && message.role !== 'assistant')
      return `messages[${i}].role must be "user" or "assistant"`
    const fault = blockFault(message.content)
    if (fault !== undefined) return `messages[${i}].content ${fault}`
  }
  return undefined
}

/** Why `value` is not a resource result, or undefined when it is one. */
export function resourceResultFault(value: unknown): string | undefined {
  if (!isObject(value)) return `it returned ${kindOf(value)}, not { contents: [...] }`
  if (!Array.isArray(value.contents)) return 'its result has no contents array'
  for (const [i, item] of value.contents.entries()) {
    const fault = resourceContentsFault(item)
    if (fault !== undefined) return `contents[${i}] ${fault}`
  }
  return undefined
}

function blocksFault(blocks: unknown[], where: string): string | undefined {
  for (const [i, block] of blocks.entries()) {
    const fault = blockFault(block)
    if (fault !== undefined) return `${where}[${i}] ${fault}`
  }
  return undefined
}

function blockFault(block: unknown): string | undefined {
  if (!isObject(block)) return 'is not a content block'
  switch (block.type) {
    case 'text':
      return typeof block.text === 'string' ? undefined : 'needs a string text'
    case 'image':
    case 'audio':
      return typeof block.data === 'string' && typeof block.mimeType === 'string'
        ? undefined
        : 'needs string data and mimeType'
    case 'resource': {
      const fault = resourceContentsFault(block.resource)
      return fault === undefined ? undefined : `resource ${fault}`
    }
    case 'resource_link':
      return typeof block.uri === 'string' && typeof block.name === 'string'
        ? undefined
        : 'needs a string uri and name'
    default:
      return `has an unknown type ${JSON.stringify(block.type)}`
  }
}

function resourceContentsFault(item: unknown): string | undefined {
  if (!isObject(item) || typeof item.uri !== 'string') return 'needs a string uri'
  return typeof item.text === 'string' || typeof item.blob === 'string'
    ? undefined
    : 'needs a string text or blob'
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function kindOf(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'an array'
  return value === undefined ? 'nothing' : `a ${typeof value}`
}
