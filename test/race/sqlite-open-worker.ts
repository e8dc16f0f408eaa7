/**
 * @module sqlite-open-worker
 * A worker process for the SQLite open race, spawned with `node --import tsx`: it says `ready`,
 * then for each command on stdin (a file and a wall-clock instant) waits until that instant,
 * opens a rate-limit store on the file, takes once from it and reports `opened`, with the error
 * when it could not. Opening at one instant in separate processes is the point.
 */
import { createInterface } from 'node:readline'
import { setTimeout as sleep } from 'node:timers/promises'
import { sqliteRateLimitStore } from '@tessera/store-sqlite'

function report(message: Record<string, unknown>): void {
  process.stdout.write(`${JSON.stringify({ ...message, pid: process.pid })}\n`)
}

async function main(): Promise<void> {
  report({ type: 'ready' })
  for await (const line of createInterface({ input: process.stdin })) {
    if (line.trim() === '') continue
    const { path, at } = JSON.parse(line) as { path: string; at: number }
    await sleep(Math.max(0, at - Date.now() - 5))
    while (Date.now() < at) {
      // The last milliseconds spun, so that every process opens the file at the same instant.
    }
    try {
      const store = sqliteRateLimitStore({ path })
      await store.take('open', { capacity: 1, refillMs: 1000 })
      await store.close()
      report({ type: 'opened', path })
    } catch (error) {
      report({ type: 'opened', path, error: String(error) })
    }
  }
}

main().catch((error: unknown) => {
  report({ type: 'fatal', message: String(error) })
  process.exitCode = 1
})
