/**
 * @module param-headers
 * `x-mcp-header` parameter mirroring (SEP-2243): the registration-time mirror table
 * and the request-time `Mcp-Param-*` check, kept pure so the registry can rebuild both together.
 */

export type { ParamHeaderFault } from './check-param-headers.ts'
export { checkParamHeaders, mirrorHeaders, mirrorHeaderValue, resolvePath } from './check-param-headers.ts'
export { type JsonInteger, parseJsonInteger } from './json-integer.ts'
export type { MirrorEntry, MirroredType, MirrorTable } from './mirror-table.ts'
export { buildMirrorTable } from './mirror-table.ts'
