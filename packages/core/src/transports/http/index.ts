/**
 * @module http
 * Streamable HTTP for Tessera: `listen` (node:http, the fast path), `createNodeListener` for an
 * existing node server, and `createFetchHandler` for web-standard runtimes.
 */

export type { HeaderView } from '../../protocol/modern/header-view.ts'
export { createFetchHandler, type FetchHandler } from './fetch.ts'
export {
  createNodeListener,
  type ListenOptions,
  listen,
  type NodeListener,
  type NodeListenerOptions,
  type RunningServer,
} from './node.ts'
export { HttpAuthError, type HttpOptions } from './options.ts'
