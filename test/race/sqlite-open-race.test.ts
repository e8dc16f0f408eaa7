/**
 * @module sqlite-open-race.test
 * Processes that open a new SQLite file at the same instant all open it. Switching the file to
 * WAL needs it to itself, and SQLite does not wait for that (no busy handler): without the retry,
 * about one race in three ended with a process refused (`SQLITE_BUSY: database is locked`).
 * Twelve new files one after the other, each opened by the same four processes at one instant.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import { WorkerProcess } from './worker-process.ts'

const WORKER = fileURLToPath(new URL('./sqlite-open-worker.ts', import.meta.url))
const FILES = 12
const PROCESSES = 4
const dir = mkdtempSync(join(tmpdir(), 'tessera-sqlite-open-race-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('opening one SQLite file from several processes at once', () => {
  it('everyProcessOpensANewFileTheOthersOpenAtTheSameInstant', async () => {
    const workers = Array.from({ length: PROCESSES }, () => new WorkerProcess(WORKER, null))
    try {
      await Promise.all(workers.map((worker) => worker.next('ready', 60_000)))
      const refused: string[] = []
      for (let file = 0; file < FILES; file++) {
        const command = { path: join(dir, `file-${file}.db`), at: Date.now() + 100 }
        for (const worker of workers) worker.send(command)
        const reports = await Promise.all(workers.map((worker) => worker.next('opened', 30_000)))
        for (const report of reports) if (report['error'] !== undefined) refused.push(String(report['error']))
      }
      expect(refused).toEqual([])
    } finally {
      await Promise.all(workers.map((worker) => worker.stop()))
    }
  }, 120_000)
})
