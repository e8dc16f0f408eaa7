/**
 * @module keys
 * `tessera keys new|rotate|list <file>`: the requestState key file every instance reads. `new`
 * writes a fresh file (mode 0600) and never overwrites one; `rotate` puts a new key first and
 * keeps the others; `rotate --retire <id>` ends a rotation by removing an old key. Secrets are
 * never printed.
 */
import { existsSync } from 'node:fs'
import {
  createStateKeyFile,
  readStateKeyFile,
  retireStateKey,
  rotateStateKeyFile,
} from '@tessera/core/request-state'
import { ExitCode } from './exit-codes.ts'
import { CommandError } from './failure.ts'

export function keysNew(file: string): number {
  return run(file, () => {
    if (existsSync(file) || !createStateKeyFile(file))
      throw new Error(`${file} exists already: rotate it instead (tessera keys rotate ${file}).`)
    report(file, 'created')
  })
}

export function keysRotate(file: string, options: { retire?: string }): number {
  return run(file, () => {
    mustExist(file)
    if (options.retire !== undefined) {
      retireStateKey(file, options.retire)
      report(file, `retired ${options.retire}`)
    } else report(file, `added ${rotateStateKeyFile(file)}, which now seals new states`)
  })
}

export function keysList(file: string): number {
  return run(file, () => {
    mustExist(file)
    report(file)
  })
}

function mustExist(file: string): void {
  if (!existsSync(file)) throw new Error(`${file} does not exist: create it with tessera keys new ${file}.`)
}

function report(file: string, what?: string): void {
  const { keys, readableByOthers } = readStateKeyFile(file)
  if (what) process.stdout.write(`${file}: ${what}\n`)
  for (const [i, key] of keys.entries())
    process.stdout.write(`  ${key.id}${i === 0 ? '  (seals new states)' : ''}\n`)
  if (readableByOthers) process.stderr.write(`warning: ${file} is readable by other users: chmod 600 it\n`)
}

/** Runs `action`; a key file that cannot be read or written fails the command (exit 1), saying why. */
function run(file: string, action: () => void): number {
  try {
    action()
    return ExitCode.ok
  } catch (error) {
    throw new CommandError(explain(file, error), ExitCode.failed, { cause: error })
  }
}

/** The key file functions say what is wrong with a file; the file system names only a code. */
function explain(file: string, error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code
  if (typeof code !== 'string') return error instanceof Error ? error.message : String(error)
  if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS')
    return `${file}: cannot write the key file (${code}): choose a place you may write, or fix its permissions.`
  return `${file}: cannot write the key file (${code}): check the path.`
}
