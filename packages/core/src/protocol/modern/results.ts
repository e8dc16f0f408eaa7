/**
 * @module results
 * The results of the methods that serve what an application registers, as they travel on the
 * wire: tool results, resource contents, prompt messages, and the content blocks they share.
 */
import type { JsonObject } from '../jsonrpc/message.ts'

/** Hints about a piece of content: who it is for, how much it matters, when it last changed. */
export interface Annotations {
  audience?: Array<'user' | 'assistant'>
  priority?: number
  lastModified?: string
}

/** One piece of content of a tool result or a prompt message: text, media, or a resource (embedded or linked). */
export type ContentBlock =
  | { type: 'text'; text: string; annotations?: Annotations; _meta?: JsonObject }
  | { type: 'image'; data: string; mimeType: string; annotations?: Annotations; _meta?: JsonObject }
  | { type: 'audio'; data: string; mimeType: string; annotations?: Annotations; _meta?: JsonObject }
  | { type: 'resource'; resource: ResourceContents; annotations?: Annotations; _meta?: JsonObject }
  | {
      type: 'resource_link'
      uri: string
      name: string
      title?: string
      description?: string
      mimeType?: string
      annotations?: Annotations
      _meta?: JsonObject
    }

/** The contents of a resource read: text or base64 `blob`, under its URI. */
export type ResourceContents =
  | { uri: string; mimeType?: string; text: string; _meta?: JsonObject }
  | { uri: string; mimeType?: string; blob: string; _meta?: JsonObject }

/** What `tools/call` returns: content blocks, optional structured content, and whether the tool failed. */
export interface CallToolResult {
  content: ContentBlock[]
  structuredContent?: unknown
  isError?: boolean
  _meta?: JsonObject
}

/** What `resources/read` returns: the contents at the URI read (a template may return several). */
export interface ReadResourceResult {
  contents: ResourceContents[]
  _meta?: JsonObject
}

/** One message of a prompt, from the user or the assistant. */
export interface PromptMessage {
  role: 'user' | 'assistant'
  content: ContentBlock
}

/** What `prompts/get` returns: the prompt's messages. */
export interface GetPromptResult {
  description?: string
  messages: PromptMessage[]
  _meta?: JsonObject
}

/** An icon a client may show for a tool, resource or prompt. */
export interface Icon {
  src: string
  mimeType?: string
  sizes?: string[]
}
