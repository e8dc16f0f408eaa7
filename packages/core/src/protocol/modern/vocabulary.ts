/**
 * @module vocabulary
 * The literal names of the 2026-07-28 wire: `_meta` keys, versions, logging levels. `_meta` keys are
 * strings with a slash in them; keeping them in one place stops typos from becoming silent misses.
 */

export const MODERN_VERSION = '2026-07-28'
export const MODERN_VERSIONS: readonly string[] = [MODERN_VERSION]
export const HANDSHAKE_VERSIONS: readonly string[] = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05']

export const MetaKey = {
  protocolVersion: 'io.modelcontextprotocol/protocolVersion',
  clientCapabilities: 'io.modelcontextprotocol/clientCapabilities',
  clientInfo: 'io.modelcontextprotocol/clientInfo',
  logLevel: 'io.modelcontextprotocol/logLevel',
  serverInfo: 'io.modelcontextprotocol/serverInfo',
  subscriptionId: 'io.modelcontextprotocol/subscriptionId',
} as const

/** The tasks extension: a client lists it in a request's capabilities, a server in discover's. */
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks'

export const LOGGING_LEVELS = [
  'debug',
  'info',
  'notice',
  'warning',
  'error',
  'critical',
  'alert',
  'emergency',
] as const
export type LoggingLevel = (typeof LOGGING_LEVELS)[number]

const severity: Readonly<Record<string, number>> = Object.fromEntries(LOGGING_LEVELS.map((l, i) => [l, i]))

export function isLoggingLevel(value: unknown): value is LoggingLevel {
  return typeof value === 'string' && severity[value] !== undefined
}

/** True when a message at `level` passes a threshold of `threshold`. */
export function passesLevel(level: LoggingLevel, threshold: LoggingLevel): boolean {
  return severity[level]! >= severity[threshold]!
}

export function isModernVersion(version: string): boolean {
  return MODERN_VERSIONS.includes(version)
}

/** The methods that may answer `input_required` (SEP-2322). */
export const MRTR_METHODS: ReadonlySet<string> = new Set(['tools/call', 'prompts/get', 'resources/read'])
