/**
 * @module keys
 * The requestState keys every worker and host must share, in the key file `tessera keys`
 * manages. The first start creates it; of several processes starting at once, one creates it and
 * the others read it.
 */
import { createStateKeyFile, readStateKeyFile, type StateKeyFile } from '@tessera/core/request-state'

export function ensureStateKeys(path: string): StateKeyFile & { created: boolean } {
  const created = createStateKeyFile(path)
  return { ...readStateKeyFile(path), created }
}
