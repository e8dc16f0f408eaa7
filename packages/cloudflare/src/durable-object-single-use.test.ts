/**
 * @module durable-object-single-use.test
 * A single-use rollback served by two Workers (two isolates) in workerd, its records in one
 * `TesseraDurableObject` kept on disk: parallel copies of one accepted answer, sent to both
 * isolates, act once; after workerd is killed and started again on the same storage, the answer
 * is still known and replays instead of acting. Without workerd or the built packages the suite is
 * skipped and says why.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { type Json, McpHttpClient, resultOf, textOf } from '../../../test/helpers/mcp-http.ts'
import type { StartedWorkers } from '../../../test/runtimes/workerd.ts'
import { startStoresWorkers, workerdMissing } from './stores-in-workerd.fixture.ts'

const skip = workerdMissing()
if (skip) process.stderr.write(`durable-object-single-use tests skipped: ${skip}\n`)

/** The runtime probes' Worker with its stores in the object: its rollback asks, then acts once. */
const ENTRY = 'test/runtimes/probe-durable-worker.ts'
const storage = mkdtempSync(join(tmpdir(), 'tessera-rollback-objects-'))
let workers: StartedWorkers | undefined
afterAll(async () => {
  await workers?.stop()
  rmSync(storage, { recursive: true, force: true })
})

/** The accepted answer to a rollback's question, with the state it answers. */
const answered = (requestState: string): Json => ({
  inputResponses: { confirm: { action: 'accept', content: { ok: true } } },
  requestState,
})

describe.skipIf(skip !== undefined)('a single-use rollback on Workers sharing a Durable Object', () => {
  it('actsOnceForCopiesOfOneAnswerSentToTwoIsolatesAndReplaysItAfterARestart', async () => {
    workers = await startStoresWorkers(2, storage, ENTRY)
    const clients = workers.urls.map((url) => new McpHttpClient(`${url}/mcp`))
    const asked = resultOf(await clients[0]!.callTool('rollback'))
    expect(asked.resultType).toBe('input_required')
    const state = asked.requestState as string

    const copies = await Promise.all(
      Array.from({ length: 8 }, (_, n) =>
        clients[n % 2]!.callTool('rollback', {}, { extra: answered(state) }),
      ),
    )
    const texts = copies.map((copy) => textOf(resultOf(copy)))
    expect(
      texts.filter((text) => text === 'Rolled back.'),
      texts.join(' | '),
    ).toHaveLength(1)

    await workers.stop()
    workers = await startStoresWorkers(2, storage, ENTRY)
    const again = workers.urls.map((url) => new McpHttpClient(`${url}/mcp`))
    for (const client of again) {
      const later = textOf(resultOf(await client.callTool('rollback', {}, { extra: answered(state) })))
      expect(later).toMatch(/^Already accepted/)
    }
  }, 60_000)
})
