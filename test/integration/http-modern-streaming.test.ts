/**
 * @module http-modern-streaming.test
 * Replies that switch to SSE on the 2026-07-28 wire: log messages at or above the requested level
 * (none without a level, or when the server does not declare logging), strictly increasing progress
 * for a progress token, and the handler's abort signal when the client disconnects.
 */
import { createServer } from '@tessera/core'
import { listen } from '@tessera/core/http'
import { describe, expect, it } from 'vitest'
import {
  capturingLogger,
  type Json,
  McpHttpClient,
  META,
  resultOf,
  sleep,
  textOf,
} from '../helpers/mcp-http.ts'
import { client, seen, useMainServer } from './fixtures/modern-server.ts'

useMainServer()

describe('logs and progress', () => {
  it('sendsNoLogMessagesWithoutALogLevel', async () => {
    const reply = await client.callTool('chatty')
    expect(reply.contentType).toMatch(/^application\/json/)
    expect(reply.notifications).toEqual([])
    expect(textOf(resultOf(reply))).toBe('logged')
  })

  it('streamsLogMessagesAtOrAboveTheRequestedLevel', async () => {
    const reply = await client.callTool('chatty', {}, { meta: { [META.logLevel]: 'warning' } })
    expect(reply.status).toBe(200)
    expect(reply.contentType).toMatch(/^text\/event-stream/)
    expect(reply.headers.get('x-accel-buffering')).toBe('no')
    const messages = reply.notifications.map((n) => n.params as Json)
    expect(reply.notifications.every((n) => n.method === 'notifications/message')).toBe(true)
    expect(messages).toEqual([
      { level: 'warning', data: { note: 'a warning' }, logger: 'it' },
      { level: 'error', data: 'an error line' },
    ])
    expect(textOf(resultOf(reply))).toBe('logged')
  })

  it('streamsEveryLevelAtDebug', async () => {
    const reply = await client.callTool('chatty', {}, { meta: { [META.logLevel]: 'debug' } })
    expect(reply.notifications.map((n) => (n.params as Json).level)).toEqual([
      'debug',
      'info',
      'warning',
      'error',
    ])
  })

  it('sendsNoLogMessagesWhenTheServerDoesNotDeclareLogging', async () => {
    const app = createServer({
      name: 'it-quiet',
      version: '1.0.0',
      logger: capturingLogger(),
      handshake: false,
    })
    app.tool('chatty', { description: 'Logs' }, (_a, ctx) => {
      ctx.log('emergency', 'loud')
      return 'logged'
    })
    const running = await listen(app, { port: 0 })
    try {
      const quiet = new McpHttpClient(running.url)
      expect(resultOf(await quiet.request('server/discover')).capabilities).not.toHaveProperty('logging')
      const reply = await quiet.callTool('chatty', {}, { meta: { [META.logLevel]: 'debug' } })
      expect(reply.contentType).toMatch(/^application\/json/)
      expect(reply.notifications).toEqual([])
    } finally {
      await running.close()
    }
  })

  it('streamsStrictlyIncreasingProgressThenTheResult', async () => {
    const reply = await client.callTool('progress', {}, { meta: { progressToken: 'p-1' } })
    expect(reply.contentType).toMatch(/^text\/event-stream/)
    const progress = reply.notifications.map((n) => n.params as Json)
    expect(reply.notifications.every((n) => n.method === 'notifications/progress')).toBe(true)
    expect(progress.map((p) => p.progress)).toEqual([1, 2, 3])
    expect(progress.every((p) => p.progressToken === 'p-1' && p.total === 3)).toBe(true)
    expect(textOf(resultOf(reply))).toBe('done')
  })

  it('sendsNoProgressWithoutAToken', async () => {
    const reply = await client.callTool('progress')
    expect(reply.contentType).toMatch(/^application\/json/)
    expect(textOf(resultOf(reply))).toBe('done')
  })

  it('abortsTheHandlerSignalWhenTheClientDisconnects', async () => {
    seen.abortedAt = 0
    const started = new Promise<void>((resolve) => {
      seen.started = resolve
    })
    const controller = new AbortController()
    const pending = client.callTool('wait-abort', {}, { signal: controller.signal }).catch((e: unknown) => e)
    await started
    const abortedAt = Date.now()
    controller.abort()
    await pending
    const deadline = Date.now() + 1_000
    while (seen.abortedAt === 0 && Date.now() < deadline) await sleep(10)
    expect(seen.abortedAt).toBeGreaterThan(0)
    expect(seen.abortedAt - abortedAt).toBeLessThan(1_000)
  })
})
