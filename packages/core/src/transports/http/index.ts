/**
 * @module http
 * Streamable HTTP for Tessera: `listen` (node:http, the fast path), `createNodeListener` for an
 * existing node server, and `createFetchHandler` for web-standard runtimes.
 */

export { DEV_CHANNEL, type DevEvent, type DevRequest } from '../../observation/dev-tap.ts'
export type { RateLimitScope } from '../../observation/observer.ts'
export type { HeaderView } from '../../protocol/modern/header-view.ts'
export type { HostReading } from '../../security/http/host-origin.ts'
export { type DevConsoleHandler, registerDevConsole } from './dev-console-hook.ts'
export { createFetchHandler, type FetchContext, type FetchHandler } from './fetch.ts'
export { LISTENING_CHANNEL, type ListenOptions, listen, type RunningServer } from './listen.ts'
export { requestHost } from './node-headers.ts'
export { createNodeListener, type NodeListener, type NodeListenerOptions } from './node-listener.ts'
export {
  HttpAuthError,
  type HttpAuthenticator,
  type HttpAuthRequest,
  type HttpOptions,
} from './options.ts'
