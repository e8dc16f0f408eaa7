/**
 * @module store-amnesia.test
 * A replay store that lost its records fails closed. Its records are what tells a replay from a
 * first use: once they are gone (a Redis restarted without persistence, a new SQLite file), an
 * answer acted on before would be acted on again. States are sealed on the store's epoch, which
 * goes with the records; a state from before is refused with the one fixed -32602, its reason
 * (`store-epoch`) in the logs and metrics, and a flow begun afresh works at once. Over real HTTP,
 * with a Redis of the test's own restarted for real, and a SQLite file replaced.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createServer, elicitForm } from '@tessera/core'
import { listen, type RunningServer } from '@tessera/core/http'
import type { ReplayStore } from '@tessera/core/ports'
import type { StateKey } from '@tessera/core/request-state'
import { redisReplayStore } from '@tessera/store-redis'
import { sqliteReplayStore } from '@tessera/store-sqlite'
import { afterAll, describe, expect, it } from 'vitest'
import { capturingLogger, McpHttpClient, resultOf, textOf } from '../helpers/mcp-http.ts'
import { hasRedisServer, startOwnRedis } from '../helpers/own-redis.ts'
import { sleep } from '../helpers/timing.ts'
import {
  expectRefused,
  firstRound,
  refusalReasons,
  retry,
  yes,
} from '../integration/fixtures/state-server.ts'

if (!hasRedisServer) process.stderr.write('store-amnesia Redis case skipped: no redis-server binary\n')

const KEY: StateKey = { id: 'amnesia', secret: `${'m'.repeat(32)}-secret-for-tests-only` }
const cleanups: (() => Promise<void>)[] = []
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup()
})

/** A server whose `deploy` asks for confirmation, then acts once; `acted` counts the actions. */
async function deployServer(replay: ReplayStore) {
  const logger = capturingLogger()
  const app = createServer({
    name: 'amnesia',
    version: '1.0.0',
    logger,
    requestState: { keys: [KEY] },
    stores: { replay },
  })
  const counter = { acted: 0 }
  const confirm = elicitForm({
    message: 'Deploy?',
    requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] },
  })
  app.tool('deploy', { description: 'deploys once', singleUse: true }, async (_args, ctx) => {
    await ctx.ask('confirm', confirm)
    counter.acted++
    return 'Deployed.'
  })
  const running: RunningServer = await listen(app, { host: '127.0.0.1', port: 0 })
  cleanups.push(() => running.close())
  return { app, client: new McpHttpClient(running.url), logger, counter }
}

describe('a replay store that lost its records', () => {
  it.skipIf(!hasRedisServer)(
    'refusesAnAnswerSealedBeforeARedisRestartedEmptyAndServesAFreshFlow',
    async () => {
      const redis = await startOwnRedis()
      cleanups.push(() => redis.stop())
      const replay = redisReplayStore({ url: redis.url, timeoutMs: 500 })
      const server = await deployServer(replay)
      const { state } = await firstRound(server.client, 'deploy', {})
      expect(textOf(resultOf(await retry(server.client, 'deploy', {}, state, yes)))).toBe('Deployed.')
      expect(textOf(resultOf(await retry(server.client, 'deploy', {}, state, yes)))).toMatch(
        /^Already accepted/,
      )

      await redis.restart()
      // The store's client reconnects on its own; until then a call is a 503, never an action.
      let replayed = await retry(server.client, 'deploy', {}, state, yes)
      for (let i = 0; i < 20 && replayed.status === 503; i++) {
        await sleep(100)
        replayed = await retry(server.client, 'deploy', {}, state, yes)
      }
      expectRefused(replayed)
      expect(server.counter.acted).toBe(1)
      expect(refusalReasons(server.logger.entries)).toContain('store-epoch')
      expect(server.app.stateMetrics().refused['store-epoch']).toBeGreaterThanOrEqual(1)

      const fresh = await firstRound(server.client, 'deploy', {})
      expect(textOf(resultOf(await retry(server.client, 'deploy', {}, fresh.state, yes)))).toBe('Deployed.')
      expect(server.counter.acted).toBe(2)
    },
    30_000,
  )

  it('refusesAnAnswerSealedOnAnotherSqliteFile', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tessera-amnesia-'))
    cleanups.push(async () => rmSync(dir, { recursive: true, force: true }))
    const before = await deployServer(sqliteReplayStore({ path: join(dir, 'replay.db') }))
    const { state } = await firstRound(before.client, 'deploy', {})
    expect(textOf(resultOf(await retry(before.client, 'deploy', {}, state, yes)))).toBe('Deployed.')

    // The same keys, a new file: the records of the first are not there.
    const after = await deployServer(sqliteReplayStore({ path: join(dir, 'replacement.db') }))
    expectRefused(await retry(after.client, 'deploy', {}, state, yes))
    expect(after.counter.acted).toBe(0)
    expect(refusalReasons(after.logger.entries)).toEqual(['store-epoch'])
  })
})
