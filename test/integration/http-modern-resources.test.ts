/**
 * @module http-modern-resources.test
 * resources/read on the 2026-07-28 wire: a missing resource is invalid params naming the URI, a
 * template resource reads with the server's cache hint, and a server without prompts answers
 * prompts/list with 404.
 */
import { describe, expect, it } from 'vitest'
import { errorOf, resultOf } from '../helpers/mcp-http.ts'
import { client, useMainServer } from './fixtures/modern-server.ts'

useMainServer()

describe('resources', () => {
  it('answersAMissingResourceWithInvalidParamsAndTheUri', async () => {
    for (const uri of ['config://nope', 'notes://unknown']) {
      const reply = await client.request('resources/read', { uri })
      expect(reply.status).toBe(200)
      const error = errorOf(reply)
      expect(error.code).toBe(-32602)
      expect(error.data).toEqual({ uri })
    }
  })

  it('readsATemplateResource', async () => {
    const result = resultOf(await client.request('resources/read', { uri: 'notes://known' }))
    expect(result.contents).toEqual([{ uri: 'notes://known', text: 'a note' }])
    expect(result).toMatchObject({ ttlMs: 1_000, cacheScope: 'public' })
  })

  it('answersPromptsListWith404OnAServerWithoutPrompts', async () => {
    const reply = await client.request('prompts/list')
    expect(reply.status).toBe(404)
    expect(errorOf(reply).code).toBe(-32601)
  })
})
