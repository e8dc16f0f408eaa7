/**
 * @module capabilities
 * Client and server capability shapes of 2026-07-28, and the check a server makes before it asks a
 * client for anything: never ask what the request did not declare (-32021 otherwise).
 */
import type { JsonObject } from '../jsonrpc/message.ts'

export interface ClientCapabilities {
  elicitation?: { form?: JsonObject; url?: JsonObject }
  sampling?: { context?: JsonObject; tools?: JsonObject }
  roots?: JsonObject
  extensions?: Record<string, JsonObject>
  experimental?: Record<string, JsonObject>
  [key: string]: unknown
}

export interface ServerCapabilities {
  tools?: { listChanged?: boolean }
  resources?: { subscribe?: boolean; listChanged?: boolean }
  prompts?: { listChanged?: boolean }
  completions?: JsonObject
  logging?: JsonObject
  extensions?: Record<string, JsonObject>
  experimental?: Record<string, JsonObject>
}

export type InputKind = 'elicitation-form' | 'elicitation-url' | 'sampling' | 'sampling-tools' | 'roots'

/** `elicitation: {}` means form only; URL mode must be declared explicitly. */
export function declares(caps: ClientCapabilities, kind: InputKind): boolean {
  switch (kind) {
    case 'elicitation-form': {
      const e = caps.elicitation
      if (!isObject(e)) return false
      return e.form !== undefined || e.url === undefined
    }
    case 'elicitation-url':
      return isObject(caps.elicitation) && isObject(caps.elicitation.url)
    case 'sampling':
      return isObject(caps.sampling)
    case 'sampling-tools':
      return isObject(caps.sampling) && isObject(caps.sampling.tools)
    case 'roots':
      return isObject(caps.roots)
  }
}

/** Whether the client listed extension `name` in this request's capabilities. */
export function declaresExtension(caps: ClientCapabilities, name: string): boolean {
  const extensions = caps.extensions
  return isObject(extensions) && isObject(extensions[name])
}

/** The `requiredCapabilities` object of a -32021 error for the kinds that are missing. */
export function requiredCapabilitiesFor(kinds: Iterable<InputKind>): ClientCapabilities {
  const out: ClientCapabilities = {}
  for (const kind of kinds) {
    if (kind === 'elicitation-form') out.elicitation = { ...out.elicitation, form: {} }
    if (kind === 'elicitation-url') out.elicitation = { ...out.elicitation, url: {} }
    if (kind === 'sampling') out.sampling = { ...out.sampling }
    if (kind === 'sampling-tools') out.sampling = { ...out.sampling, tools: {} }
    if (kind === 'roots') out.roots = {}
  }
  return out
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
