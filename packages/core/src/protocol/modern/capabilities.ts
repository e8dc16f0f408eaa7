/**
 * @module capabilities
 * Client and server capability shapes of 2026-07-28, and the check a server makes before it asks a
 * client for anything: never ask what the request did not declare (-32021 otherwise).
 */
import type { JsonObject } from '../jsonrpc/message.ts'

/**
 * What a client says it can do: sent in the `_meta` of every 2026-07-28 request, or once in
 * `initialize` for a 2025-11-25 session. A server asks the client for input (a form, a sampling,
 * its roots) only of a kind declared here.
 */
export interface ClientCapabilities {
  elicitation?: { form?: JsonObject; url?: JsonObject }
  sampling?: { context?: JsonObject; tools?: JsonObject }
  roots?: JsonObject
  extensions?: Record<string, JsonObject>
  experimental?: Record<string, JsonObject>
  [key: string]: unknown
}

/**
 * What a server offers, as it tells the client (`server/discover` in 2026-07-28, `initialize` in
 * 2025-11-25). Tessera derives it from what is registered: nothing to configure by hand.
 */
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

/** Extensions a kept declaration lists at most, and the longest name it keeps. */
const MAX_EXTENSIONS = 32
const MAX_EXTENSION_NAME = 256

/**
 * What a server keeps of a client's capabilities beyond one request (a task record, a handshake
 * session): the declarations `declares` and `declaresExtension` read, each as an empty object,
 * and `roots.listChanged`; nothing else the client wrote inside them. A client cannot make a
 * stored record heavier by padding its capabilities. It reads the capabilities as any JSON object,
 * since they come from the client unchecked.
 */
export function capabilityDeclarations(caps: JsonObject): ClientCapabilities {
  const kept: ClientCapabilities = {}
  const elicitation = caps.elicitation
  if (isObject(elicitation)) {
    kept.elicitation = {}
    if (isObject(elicitation.form)) kept.elicitation.form = {}
    if (isObject(elicitation.url)) kept.elicitation.url = {}
  }
  const sampling = caps.sampling
  if (isObject(sampling)) {
    kept.sampling = {}
    if (isObject(sampling.context)) kept.sampling.context = {}
    if (isObject(sampling.tools)) kept.sampling.tools = {}
  }
  if (isObject(caps.roots)) kept.roots = caps.roots.listChanged === true ? { listChanged: true } : {}
  const extensions = caps.extensions
  if (isObject(extensions)) {
    const names = Object.keys(extensions)
      .filter((name) => name.length <= MAX_EXTENSION_NAME && isObject(extensions[name]))
      .slice(0, MAX_EXTENSIONS)
    if (names.length > 0) kept.extensions = Object.fromEntries(names.map((name) => [name, {}]))
  }
  return kept
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
