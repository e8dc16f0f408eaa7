/**
 * @module serving-warnings.test
 * What a server keeps in this process only (an ephemeral requestState key, single-use records
 * without `stores.replay`) is warned about when a transport starts serving it, over real HTTP on
 * 127.0.0.1: once, whatever else then serves it and however many requests come; a single-use tool
 * registered while serving is named then; a server with keys and a replay store hears nothing.
 */
import { createServer } from '@tessera/core'
import { createFetchHandler, listen } from '@tessera/core/http'
import { memoryReplayStore } from '@tessera/core/ports'
import { generateStateKey } from '@tessera/core/request-state'
import { describe, expect, it } from 'vitest'
import { capturingLogger, McpHttpClient, resultOf } from '../helpers/mcp-http.ts'

function warnings(logger: ReturnType<typeof capturingLogger>): unknown[] {
  return logger.entries.filter((entry) => entry.level === 'warn').map((entry) => entry.obj)
}

describe('warnings about what this process alone keeps', () => {
  it('areSaidOnceWhenListenStartsServingNotWhenTheServerIsBuilt', async () => {
    const logger = capturingLogger()
    const app = createServer({ name: 'it-warnings', version: '1.0.0', logger })
    app.tool('restart', { description: 'Acts once', singleUse: true }, () => 'restarted')
    expect(warnings(logger)).toEqual([])
    const running = await listen(app, { port: 0 })
    try {
      const client = new McpHttpClient(running.url)
      for (let i = 0; i < 2; i++) expect(resultOf(await client.request('tools/list')).tools).toHaveLength(1)
      createFetchHandler(app)
      expect(warnings(logger)).toEqual([
        { event: 'request_state_ephemeral_key' },
        { event: 'single_use_memory_store', tool: 'restart' },
      ])
      app.tool('rollback', { description: 'Acts once too', singleUse: true }, () => 'rolled back')
      expect(warnings(logger).slice(2)).toEqual([{ event: 'single_use_memory_store', tool: 'rollback' }])
    } finally {
      await running.close()
    }
  })

  it('areNotSaidForAServerWithKeysAndAReplayStore', async () => {
    const logger = capturingLogger()
    const app = createServer({
      name: 'it-warnings',
      version: '1.0.0',
      logger,
      requestState: { keys: [generateStateKey('k')] },
      stores: { replay: memoryReplayStore() },
    })
    app.tool('restart', { description: 'Acts once', singleUse: true }, () => 'restarted')
    const running = await listen(app, { port: 0 })
    try {
      expect(resultOf(await new McpHttpClient(running.url).request('tools/list')).tools).toHaveLength(1)
      expect(warnings(logger)).toEqual([])
    } finally {
      await running.close()
    }
  })
})
