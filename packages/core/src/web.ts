/**
 * @module @tessera/core (web)
 * `@tessera/core` under the `workerd`, `worker` and `browser` export conditions: the same
 * application API, with a `createServer` whose defaults need no Node (the console logger, a bus
 * in memory). `loggerOptions`, which configures pino, is Node's only.
 */

export { TesseraError } from './errors.ts'
export type * from './index.ts'
export { consoleLogger } from './observation/console-logger.ts'
export { createServer } from './server/create-server-web.ts'
export { createMessage, elicitForm, elicitUrl, listRoots } from './server/mrtr/input-requests.ts'
export { ToolError } from './server/tool-error.ts'
