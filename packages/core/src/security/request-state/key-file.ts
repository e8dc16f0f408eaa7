/**
 * @module key-file
 * The requestState key ring kept in a file, the format `tessera keys` writes and every instance
 * reads: `{ "keys": [{ "id": "k20261201-3fa2c1", "secret": "<base64url of 32 random bytes>" }] }`,
 * first key first, mode 0600. Files are never written in place: a new file is written under a
 * temporary name, flushed, then linked (when creating, so that of several processes starting at
 * once exactly one creates it and the others read it) or renamed (when changing) into place, so
 * no reader ever sees half a file.
 */
import { randomBytes } from 'node:crypto'
import {
  closeSync,
  fsyncSync,
  linkSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  statSync,
  unlinkSync,
  writeSync,
} from 'node:fs'
import { dirname } from 'node:path'
import { isValidKeyId, MIN_SECRET_BYTES, type StateKey } from './key-ring.ts'

const BASE64URL = /^[A-Za-z0-9_-]+$/

/** A key file as `readStateKeyFile` reads it: the ring to pass as `requestState.keys`, and a warning. */
export interface StateKeyFile {
  /** The ring, first key first: the first seals new states, every key opens them. */
  keys: StateKey[]
  /** The file is readable by its group or by others: worth a warning (`chmod 600`). */
  readableByOthers: boolean
}

/** Reads and checks a key file. Throws an Error naming the file and what is wrong with it. */
export function readStateKeyFile(path: string): StateKeyFile {
  let parsed: unknown
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'))
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message
    throw new Error(`${path}: cannot read the key file (${reason})`)
  }
  const entries = (parsed as { keys?: unknown } | null)?.keys
  if (!Array.isArray(entries) || entries.length === 0)
    throw new Error(`${path}: not a key file: it needs a non-empty "keys" array`)
  const seen = new Set<string>()
  const keys = entries.map((entry: unknown, index): StateKey => {
    const { id, secret } = (entry ?? {}) as { id?: unknown; secret?: unknown }
    if (typeof id !== 'string' || !isValidKeyId(id))
      throw new Error(`${path}: keys[${index}].id must be 1 to 32 characters of A-Z a-z 0-9 _ -`)
    if (seen.has(id)) throw new Error(`${path}: key '${id}' appears twice`)
    seen.add(id)
    if (typeof secret !== 'string' || !BASE64URL.test(secret))
      throw new Error(`${path}: key '${id}': secret must be base64url`)
    const bytes = Buffer.from(secret, 'base64url')
    if (bytes.byteLength < MIN_SECRET_BYTES)
      throw new Error(`${path}: key '${id}' is shorter than ${MIN_SECRET_BYTES} bytes`)
    return { id, secret: new Uint8Array(bytes) }
  })
  return { keys, readableByOthers: (statSync(path).mode & 0o077) !== 0 }
}

/**
 * Creates a key file holding one fresh key, unless the file exists. True when this call created
 * it; false when it was there already (or another process created it first).
 */
export function createStateKeyFile(path: string): boolean {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 })
  const temporary = writeTemporary(path, [newFileKey()])
  try {
    linkSync(temporary, path)
    return true
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false
    throw error
  } finally {
    unlinkSync(temporary)
  }
}

/** Puts a fresh key first and keeps the others (phase one of a rotation). Returns the new key's id. */
export function rotateStateKeyFile(path: string): string {
  const { keys } = readStateKeyFile(path)
  const fresh = newFileKey()
  replace(path, [fresh, ...keys])
  return fresh.id
}

/**
 * Removes key `id` (the last phase of a rotation). The first key seals new states and cannot be
 * retired; rotate first.
 */
export function retireStateKey(path: string, id: string): void {
  const { keys } = readStateKeyFile(path)
  const index = keys.findIndex((key) => key.id === id)
  if (index === -1) throw new Error(`${path}: no key '${id}' (keys: ${keys.map((k) => k.id).join(', ')})`)
  if (index === 0)
    throw new Error(`${path}: '${id}' is the key new states are sealed with; rotate before retiring it`)
  replace(
    path,
    keys.filter((key) => key.id !== id),
  )
}

/** A key with a dated id, so a file shows at a glance how old each key is. */
function newFileKey(): StateKey {
  const day = new Date().toISOString().slice(0, 10).replaceAll('-', '')
  return { id: `k${day}-${randomBytes(3).toString('hex')}`, secret: randomBytes(MIN_SECRET_BYTES) }
}

function replace(path: string, keys: readonly StateKey[]): void {
  const temporary = writeTemporary(path, keys)
  try {
    renameSync(temporary, path)
  } catch (error) {
    unlinkSync(temporary)
    throw error
  }
}

/** Writes `keys` to a new 0600 file beside `path`, flushed to disk, and returns its name. */
function writeTemporary(path: string, keys: readonly StateKey[]): string {
  const body = { keys: keys.map((key) => ({ id: key.id, secret: secretBytes(key).toString('base64url') })) }
  const temporary = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`
  const fd = openSync(temporary, 'wx', 0o600)
  try {
    writeSync(fd, `${JSON.stringify(body, null, 2)}\n`)
    fsyncSync(fd)
  } finally {
    closeSync(fd)
  }
  return temporary
}

function secretBytes(key: StateKey): Buffer {
  return typeof key.secret === 'string' ? Buffer.from(key.secret, 'utf8') : Buffer.from(key.secret)
}
