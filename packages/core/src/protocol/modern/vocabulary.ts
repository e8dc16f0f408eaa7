/**
 * @module vocabulary
 * The literal names of the 2026-07-28 wire: `_meta` keys, versions, logging levels. `_meta` keys are
 * strings with a slash in them; keeping them in one place stops typos from becoming silent misses.
 */

/** The stateless revision: each of its requests claims it in `_meta` (and over HTTP in a header). */
export const MODERN_VERSION = '2026-07-28'
export const MODERN_VERSIONS: readonly string[] = [MODERN_VERSION]
/** The revisions a client may open a session with through `initialize`, newest first. */
export const HANDSHAKE_VERSIONS: readonly string[] = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05']

/**
 * The `_meta` keys of the 2026-07-28 envelope, by what they carry: a request sends its version,
 * capabilities, client and log level under them, a result its server, and the messages of a
 * `subscriptions/listen` stream the subscription they belong to.
 */
export const MetaKey = {
  protocolVersion: 'io.modelcontextprotocol/protocolVersion',
  clientCapabilities: 'io.modelcontextprotocol/clientCapabilities',
  clientInfo: 'io.modelcontextprotocol/clientInfo',
  logLevel: 'io.modelcontextprotocol/logLevel',
  serverInfo: 'io.modelcontextprotocol/serverInfo',
  subscriptionId: 'io.modelcontextprotocol/subscriptionId',
} as const

/**
 * The `_meta` key under which the handshake era's elicitation requests name the question they ask
 * (the key a handler gave `ctx.ask`), so a client can answer by key.
 */
export const INPUT_KEY_META = 'dev.tessera/inputKey'

/** The tasks extension: a client lists it in a request's capabilities, a server in discover's. */
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks'

/** The skills extension: Agent Skills served as resources, listed by `skills/list`. */
export const SKILLS_EXTENSION = 'io.modelcontextprotocol/skills'

/** The MCP Apps extension: views a host renders beside a tool's result. */
export const APPS_EXTENSION = 'io.modelcontextprotocol/ui'

/** The media type of an MCP Apps view. */
export const VIEW_MIME_TYPE = 'text/html;profile=mcp-app'

/** The levels of a log message, least severe first: a client's level keeps it and those after it. */
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
/** One level of `LOGGING_LEVELS`. */
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
