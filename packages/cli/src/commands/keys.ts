/**
 * @module keys
 * `tessera keys new|rotate|list <file>`: the requestState key file every instance reads. `new`
 * writes a fresh file (mode 0600) and never overwrites one; `rotate` puts a new key first and
 * keeps the others; `rotate --retire <id>` ends a rotation by removing an old key. Secrets are
 * never printed.
 */
import { existsSync } from 'node:fs'
import { createStateKeyFile, readStateKeyFile, retireStateKey, rotateStateKeyFile } from '@tessera/core'
import { ExitCode } from './exit-codes.ts'

export function keysNew(file: string): number {
  return run(() => {
    if (existsSync(file) || !createStateKeyFile(file))
      throw new Error(`${file} exists already: rotate it instead.`)
    report(file, 'created')
  })
}

export function keysRotate(file: string, options: { retire?: string }): number {
  return run(() => {
    if (options.retire !== undefined) {
      retireStateKey(file, options.retire)
      report(file, `retired ${options.retire}`)
    } else report(file, `added ${rotateStateKeyFile(file)}, which now seals new states`)
  })
}

export function keysList(file: string): number {
  return run(() => report(file))
}

function report(file: string, what?: string): void {
  const { keys, readableByOthers } = readStateKeyFile(file)
  if (what) process.stdout.write(`${file}: ${what}\n`)
  for (const [i, key] of keys.entries())
    process.stdout.write(`  ${key.id}${i === 0 ? '  (seals new states)' : ''}\n`)
  if (readableByOthers) process.stderr.write(`warning: ${file} is readable by other users: chmod 600 it\n`)
}

function run(action: () => void): number {
  try {
    action()
    return ExitCode.ok
  } catch (error) {
    process.stderr.write(`tessera: ${(error as Error).message}\n`)
    return ExitCode.failed
  }
}
