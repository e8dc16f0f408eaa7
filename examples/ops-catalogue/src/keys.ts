/**
 * @module keys
 * The requestState keys every worker and host must share, kept in a file. The first start creates
 * it: written under a temporary name with mode 0600, then linked into place, so two processes
 * starting at once end up with one key file (the loser reads the winner's) and nobody ever reads
 * a half-written one.
 */
import { randomBytes } from 'node:crypto'
import {
  closeSync,
  fsyncSync,
  linkSync,
  mkdirSync,
  openSync,
  readFileSync,
  statSync,
  unlinkSync,
  writeSync,
} from 'node:fs'
import { dirname } from 'node:path'
import type { StateKey } from '@tessera/core'
import { z } from 'zod'

const SECRET_BYTES = 32

const keyFile = z.object({
  keys: z
    .array(
      z.object({
        id: z.string().regex(/^[A-Za-z0-9_-]{1,32}$/),
        /** base64url of at least 32 random bytes. */
        secret: z.string().regex(/^[A-Za-z0-9_-]+$/),
      }),
    )
    .min(1),
})

export interface LoadedKeys {
  keys: StateKey[]
  created: boolean
  /** Set when the file is readable by group or others: worth a warning, not a refusal. */
  looseMode?: number
}

/** Reads the key file, creating it first if it does not exist. */
export function ensureStateKeys(path: string): LoadedKeys {
  let created = false
  try {
    statSync(path)
  } catch {
    created = createKeyFile(path)
  }
  return { ...readKeyFile(path), created }
}

export function readKeyFile(path: string): Omit<LoadedKeys, 'created'> {
  const parsed = keyFile.safeParse(JSON.parse(readFileSync(path, 'utf8')))
  if (!parsed.success)
    throw new Error(`${path}: not a key file: ${parsed.error.issues[0]?.message ?? 'invalid'}`)
  const keys = parsed.data.keys.map((k) => {
    const secret = Buffer.from(k.secret, 'base64url')
    if (secret.byteLength < SECRET_BYTES)
      throw new Error(`${path}: key '${k.id}' is shorter than ${SECRET_BYTES} bytes.`)
    return { id: k.id, secret: new Uint8Array(secret) }
  })
  const mode = statSync(path).mode & 0o777
  return (mode & 0o077) === 0 ? { keys } : { keys, looseMode: mode }
}

/** true when this call created the file, false when another process got there first. */
function createKeyFile(path: string): boolean {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 })
  const id = `k${new Date().toISOString().slice(0, 10).replaceAll('-', '')}-${randomBytes(3).toString('hex')}`
  const body = `${JSON.stringify({ keys: [{ id, secret: randomBytes(SECRET_BYTES).toString('base64url') }] }, null, 2)}\n`
  const temporary = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`
  const fd = openSync(temporary, 'wx', 0o600)
  try {
    writeSync(fd, body)
    fsyncSync(fd)
  } finally {
    closeSync(fd)
  }
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
