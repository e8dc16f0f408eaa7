/**
 * @module http-modern-discovery.test
 * server/discover on the 2026-07-28 wire (versions, capabilities, cache hints, server info), tools/list
 * pages with their cache hint and a forged cursor, resources/read hints, and how tool input schemas
 * are advertised (optional zod params, raw JSON Schema verbatim).
 */
import { describe, expect, it } from 'vitest'
import { errorOf, type Json, META, resultOf, VERSION } from '../helpers/mcp-http.ts'
import { client, rawSchema, useMainServer } from './fixtures/modern-server.ts'

useMainServer()

describe('discovery and lists', () => {
  it('discoversVersionsCapabilitiesCacheHintsAndServerInfo', async () => {
    const reply = await client.request('server/discover')
    expect(reply.status).toBe(200)
    expect(reply.contentType).toMatch(/^application\/json/)
    const result = resultOf(reply)
    expect(result.resultType).toBe('complete')
    expect(result.supportedVersions).toEqual([VERSION])
    expect(result.capabilities).toMatchObject({
      tools: { listChanged: true },
      resources: { subscribe: true, listChanged: true },
      logging: {},
    })
    expect(result.ttlMs).toBe(30_000)
    expect(result.cacheScope).toBe('public')
    expect((result._meta as Json)[META.serverInfo]).toEqual({ name: 'it-main', version: '1.2.3' })
    expect(result).not.toHaveProperty('serverInfo')
  })

  it('putsTheToolsListCacheHintOnEveryPage', async () => {
    const result = resultOf(await client.request('tools/list'))
    expect(result).toMatchObject({ resultType: 'complete', ttlMs: 60_000, cacheScope: 'public' })
    expect((result._meta as Json)[META.serverInfo]).toBeDefined()
  })

  it('letsAResourceOverrideTheServerReadHint', async () => {
    const general = resultOf(await client.request('resources/read', { uri: 'config://server' }))
    expect(general).toMatchObject({ ttlMs: 1_000, cacheScope: 'public' })
    const own = resultOf(await client.request('resources/read', { uri: 'config://override' }))
    expect(own).toMatchObject({ ttlMs: 5, cacheScope: 'private', resultType: 'complete' })
    expect(own.contents).toEqual([{ uri: 'config://override', text: 'own hint' }])
  })

  it('walksEveryPageOfToolsViaNextCursor', async () => {
    const names: string[] = []
    let cursor: unknown
    let pages = 0
    do {
      const result = resultOf(await client.request('tools/list', cursor === undefined ? {} : { cursor }))
      const tools = result.tools as Array<{ name: string }>
      expect(tools.length).toBeLessThanOrEqual(2)
      expect(result).toMatchObject({ ttlMs: 60_000, cacheScope: 'public' })
      names.push(...tools.map((t) => t.name))
      cursor = result.nextCursor
      pages++
    } while (cursor !== undefined && pages < 20)
    expect(names).toEqual([
      'echo',
      'typed',
      'boom',
      'refuse',
      'bad-output',
      'optional-params',
      'raw-schema',
      'chatty',
      'progress',
      'wait-abort',
    ])
    expect(pages).toBe(5)
  })

  it('refusesAForgedCursorWithInvalidParamsNotACrash', async () => {
    for (const cursor of ['forged', '2.AAAAAAAA', 'zzzzzzzzzz.abcdefgh', 42, '']) {
      const reply = await client.request('tools/list', { cursor })
      if (cursor === '') {
        // An empty string is a valid cursor (the first page).
        expect(resultOf(reply).tools).toHaveLength(2)
        continue
      }
      expect(reply.status).toBe(200)
      expect(errorOf(reply).code).toBe(-32602)
    }
    // The server is still fine afterwards.
    expect(resultOf(await client.request('tools/list')).tools).toHaveLength(2)
  })

  it('advertisesOptionalAndDefaultedZodParamsAsNotRequired', async () => {
    const tool = await findTool('optional-params')
    const schema = tool.inputSchema as { required?: string[]; properties: Json }
    expect(schema.required).toEqual(['needed'])
    expect(Object.keys(schema.properties).sort()).toEqual(['maybe', 'needed', 'withDefault'])
  })

  it('advertisesARawJsonSchemaVerbatim', async () => {
    const tool = await findTool('raw-schema')
    expect(tool.inputSchema).toEqual(rawSchema)
  })
})

async function findTool(name: string): Promise<Json> {
  let cursor: unknown
  for (let i = 0; i < 20; i++) {
    const result = resultOf(await client.request('tools/list', cursor === undefined ? {} : { cursor }))
    const found = (result.tools as Json[]).find((t) => t.name === name)
    if (found) return found
    cursor = result.nextCursor
    if (cursor === undefined) break
  }
  throw new Error(`tool ${name} not listed`)
}
