/**
 * @module render-result
 * A tool result for a person: text content as text, other content named by kind, and
 * `structuredContent` as indented JSON.
 */
import { isObject, type JsonObject } from '../client/json-rpc.ts'

export function renderToolResult(result: JsonObject): string {
  const parts: string[] = []
  const content = Array.isArray(result.content) ? result.content.filter(isObject) : []
  for (const item of content) parts.push(renderContent(item))
  if (result.structuredContent !== undefined) parts.push(JSON.stringify(result.structuredContent, null, 2))
  return parts.join('\n')
}

export function renderContent(item: JsonObject): string {
  switch (item.type) {
    case 'text':
      return String(item.text)
    case 'image':
    case 'audio':
      return `[${item.type} ${String(item.mimeType)}, ${Math.floor((String(item.data ?? '').length * 3) / 4)} bytes]`
    case 'resource_link':
      return `[link ${String(item.uri)}${item.name ? ` (${String(item.name)})` : ''}]`
    case 'resource': {
      const resource = isObject(item.resource) ? item.resource : {}
      return typeof resource.text === 'string' ? resource.text : `[resource ${String(resource.uri)}, binary]`
    }
    default:
      return JSON.stringify(item)
  }
}
