/**
 * @module request-state
 * The requestState codec (sealed or signed tokens under a rotating key ring) and the binding that
 * ties each state to the server, principal and call it was minted for.
 */

export type {
  AuthInfo,
  Binder,
  BindingInput,
  BindingResult,
  OriginatingRequestBinderOptions,
} from './binding.ts'
export { digestArguments, originatingRequestBinder, unboundBinder } from './binding.ts'
export { canonicalJson, MAX_CANONICAL_DEPTH } from './canonical-json.ts'
export type {
  OpenedState,
  RequestStateCodec,
  RequestStateCodecOptions,
  StateMode,
  StateRefusal,
} from './codec.ts'
export { createRequestStateCodec } from './codec.ts'
export {
  createStateKeyFile,
  readStateKeyFile,
  retireStateKey,
  rotateStateKeyFile,
  type StateKeyFile,
} from './key-file.ts'
export type { DerivedKey, KeyRing, StateKey } from './key-ring.ts'
export { createKeyRing, generateStateKey, isValidKeyId, MIN_SECRET_BYTES } from './key-ring.ts'
