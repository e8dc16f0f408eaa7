/**
 * @module @tessera/core/http (web)
 * `@tessera/core/http` under the `workerd`, `worker` and `browser` export conditions: the
 * web-standard face, `createFetchHandler`, and what configures it. `listen`, `createNodeListener`,
 * `requestHost` and the development console are Node's only.
 */

export { createFetchHandler } from './fetch.ts'
export type * from './index.ts'
export { HttpAuthError } from './options.ts'
