/**
 * @module @tessera/core/request-state
 * The keys that seal requestStates and what binds a state to its call: key files (create, read,
 * rotate, retire), a fresh key for tests and one-off scripts, and the binders that tie each state
 * to the principal and the originating request. A server takes them through `createServer`'s
 * `requestState` option.
 */
export type {
  Binder,
  BindingInput,
  BindingResult,
  OriginatingRequestBinderOptions,
} from './security/request-state/binding.ts'
export { originatingRequestBinder } from './security/request-state/binding.ts'
export {
  createStateKeyFile,
  readStateKeyFile,
  retireStateKey,
  rotateStateKeyFile,
  type StateKeyFile,
} from './security/request-state/key-file.ts'
export { generateStateKey, type StateKey } from './security/request-state/key-ring.ts'
