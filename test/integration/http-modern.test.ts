/**
 * @module http-modern.test
 * The 2026-07-28 wire over a real node:http server on 127.0.0.1 (port 0), driven with global
 * fetch (and raw node:http where fetch cannot express a request): discovery, lists with cache
 * hints and pagination, tool calls and their failures, every envelope/header refusal with its
 * JSON-RPC code and HTTP status, log and progress streams, cancellation by disconnect, the HTTP
 * guards (method, Accept, Content-Type, sizes, Host, Origin) and `subscriptions/listen`.
 */
import { createServer, type McpServer, ToolError } from '@tessera/core'
import { listen, type RunningServer } from '@tessera/core/http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import {
  capturingLogger,
  envelope,
  errorOf,
  type Json,
  McpHttpClient,
  META,
  mcpHeaders,
  paramsOf,
  rawPost,
  requestParts,
  resultOf,
  SseReader,
  sleep,
  textOf,
  VERSION,
} from '../helpers/mcp-http.ts'

const SECRET = 'db password is hunter2 at /srv/internal/db.ts:42'

const rawSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  $defs: { port: { type: 'integer', minimum: 1, maximum: 65535 } },
  properties: {
    host: { type: 'string', 'x-custom': 'kept' },
    port: { $ref: '#/$defs/port' },
  },
  required: ['host'],
  additionalProperties: false,
}

/** Observations the tools make, for assertions about what ran. */
const seen = { abortedAt: 0, startedAt: 0, started: undefined as (() => void) | undefined }

function buildMain(logger = capturingLogger()): McpServer {
  const app = createServer({
    name: 'it-main',
    version: '1.2.3',
    pageSize: 2,
    logging: true,
    // Modern-only: GET/DELETE are 405 and discover lists 2026-07-28 alone.
    handshake: false,
    logger,
    cache: {
      discover: { ttlMs: 30_000, cacheScope: 'public' },
      toolsList: { ttlMs: 60_000, cacheScope: 'public' },
      resourcesRead: { ttlMs: 1_000, cacheScope: 'public' },
    },
  })
  app.tool(
    'echo',
    { description: 'Echo text', input: z.object({ text: z.string() }) },
    ({ text }) => `echo: ${text}`,
  )
  app.tool(
    'typed',
    {
      description: 'Nested arguments',
      input: z.object({ count: z.number().int(), nested: z.object({ flag: z.boolean() }) }),
    },
    ({ count }) => `count ${count}`,
  )
  app.tool('boom', { description: 'Throws an internal error' }, () => {
    throw new Error(SECRET)
  })
  app.tool('refuse', { description: 'Throws a ToolError' }, () => {
    throw new ToolError('Service checkout is locked for deploys.')
  })
  app.tool(
    'bad-output',
    { description: 'Returns structured content that breaks its schema', output: z.object({ n: z.number() }) },
    // Typed code cannot return this; the cast stands for a handler written in JavaScript.
    () => ({ content: [{ type: 'text', text: 'x' }], structuredContent: { n: SECRET as unknown as number } }),
  )
  app.tool(
    'optional-params',
    {
      description: 'Optional and defaulted params',
      input: z.object({
        needed: z.string(),
        maybe: z.string().optional(),
        withDefault: z.number().default(3),
      }),
    },
    ({ needed, withDefault }) => `${needed} ${withDefault}`,
  )
  app.tool('raw-schema', { description: 'Raw JSON Schema 2020-12', input: rawSchema }, (args) =>
    JSON.stringify(args),
  )
  app.tool('chatty', { description: 'Logs at four levels' }, (_a, ctx) => {
    ctx.log('debug', 'a debug line')
    ctx.log('info', 'an info line')
    ctx.log('warning', { note: 'a warning' }, 'it')
    ctx.log('error', 'an error line')
    return 'logged'
  })
  app.tool('progress', { description: 'Reports progress' }, async (_a, ctx) => {
    for (const step of [1, 2, 2, 1.5, 3]) {
      ctx.progress(step, 3, `step ${step}`)
      await sleep(5)
    }
    return 'done'
  })
  app.tool('wait-abort', { description: 'Waits for its signal' }, async (_a, ctx) => {
    seen.startedAt = Date.now()
    seen.started?.()
    await new Promise<void>((resolve) => {
      if (ctx.signal.aborted) return resolve()
      ctx.signal.addEventListener('abort', () => resolve(), { once: true })
    })
    seen.abortedAt = Date.now()
    return 'aborted'
  })
  app.resource('config://server', { name: 'server-config' }, (uri) => ({
    contents: [{ uri, text: 'default hint' }],
  }))
  app.resource(
    'config://override',
    { name: 'override', cache: { ttlMs: 5, cacheScope: 'private' } },
    (uri) => ({
      contents: [{ uri, text: 'own hint' }],
    }),
  )
  app.resourceTemplate('notes://{id}', { name: 'note' }, (uri, { id }) =>
    id === 'known' ? { contents: [{ uri, text: 'a note' }] } : undefined,
  )
  return app
}

let main: RunningServer
let client: McpHttpClient
const mainLogger = capturingLogger()

beforeAll(async () => {
  main = await listen(buildMain(mainLogger), { port: 0, maxBodyBytes: 8 * 1024, maxHeaderBytes: 8 * 1024 })
  client = new McpHttpClient(main.url)
})
afterAll(async () => {
  await main.close()
})

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

describe('tools/call', () => {
  it('callsAToolAndReturnsItsText', async () => {
    const reply = await client.callTool('echo', { text: 'hi' })
    expect(reply.status).toBe(200)
    const result = resultOf(reply)
    expect(result.resultType).toBe('complete')
    expect(textOf(result)).toBe('echo: hi')
    expect(result).not.toHaveProperty('ttlMs')
    expect((result._meta as Json)[META.serverInfo]).toEqual({ name: 'it-main', version: '1.2.3' })
  })

  it('refusesBadArgumentsNamingThePath', async () => {
    const reply = await client.callTool('typed', { count: 1, nested: { flag: 'yes' } })
    expect(reply.status).toBe(200)
    const error = errorOf(reply)
    expect(error.code).toBe(-32602)
    expect(error.message).toContain('/nested/flag')
  })

  it('refusesAMissingRawSchemaPropertyNamingIt', async () => {
    const error = errorOf(await client.callTool('raw-schema', { port: 80 }))
    expect(error.code).toBe(-32602)
    expect(error.message).toContain('host')
    expect(textOf(resultOf(await client.callTool('raw-schema', { host: 'a', port: 80 })))).toBe(
      '{"host":"a","port":80}',
    )
  })

  it('turnsAThrowingToolIntoASafeIsErrorResult', async () => {
    const reply = await client.callTool('boom')
    const result = resultOf(reply)
    expect(result.isError).toBe(true)
    expect(reply.raw).not.toContain('hunter2')
    expect(reply.raw).not.toContain('/srv/internal')
    expect(reply.raw).not.toMatch(/\bat .*\(.*:\d+:\d+\)/)
    expect(textOf(result).length).toBeGreaterThan(0)
    // The detail stays in the logs.
    expect(
      JSON.stringify(
        mainLogger.entries.map((e) => e.obj),
        errorReplacer,
      ),
    ).toContain('hunter2')
  })

  it('passesAToolErrorMessageThrough', async () => {
    const result = resultOf(await client.callTool('refuse'))
    expect(result.isError).toBe(true)
    expect(textOf(result)).toBe('Service checkout is locked for deploys.')
  })

  it('answersAFailedResultForAnOutputSchemaViolationWithoutLeaking', async () => {
    const reply = await client.callTool('bad-output')
    expect(reply.status).toBe(200)
    expect(resultOf(reply).isError).toBe(true)
    expect(reply.raw).not.toContain('hunter2')
  })

  it('refusesAnUnknownToolWithInvalidParams', async () => {
    const reply = await client.callTool('no-such-tool')
    expect(reply.status).toBe(200)
    expect(errorOf(reply).code).toBe(-32602)
  })
})

function errorReplacer(_key: string, value: unknown): unknown {
  return value instanceof Error ? { message: value.message, stack: value.stack } : value
}

describe('malformed messages', () => {
  it('reportsLineAndColumnOfAParseErrorWith400', async () => {
    const body = '{\n  "jsonrpc": "2.0",\n  "id": 1,\n  "method": "tools/list" oops\n}'
    const reply = await client.postRaw(body)
    expect(reply.status).toBe(400)
    const error = errorOf(reply)
    expect(error.code).toBe(-32700)
    const column = '  "method": "tools/list" oops'.indexOf('oops') + 1
    expect(error.message).toContain(`line 4, column ${column}`)
    expect(reply.body).not.toHaveProperty('id')
  })

  it('refusesAJsonArrayAsInvalidRequest', async () => {
    const single = { jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: envelope() } }
    const reply = await client.postRaw([single])
    expect(reply.status).toBe(400)
    expect(errorOf(reply).code).toBe(-32600)
  })

  it('refusesNonObjectJsonAsInvalidRequest', async () => {
    for (const body of ['"hello"', '42', 'null', 'true']) {
      const reply = await client.postRaw(body)
      expect(reply.status).toBe(400)
      expect(errorOf(reply).code).toBe(-32600)
    }
  })

  it('refusesJsonrpc10AsInvalidRequest', async () => {
    const reply = await client.postRaw({
      jsonrpc: '1.0',
      id: 7,
      method: 'tools/list',
      params: { _meta: envelope() },
    })
    expect(reply.status).toBe(400)
    expect(errorOf(reply).code).toBe(-32600)
  })

  it('refusesANullIdAsInvalidRequest', async () => {
    const reply = await client.postRaw({
      jsonrpc: '2.0',
      id: null,
      method: 'tools/list',
      params: { _meta: envelope() },
    })
    expect(reply.status).toBe(400)
    expect(errorOf(reply).code).toBe(-32600)
    expect(reply.body).not.toHaveProperty('id')
  })

  it('refusesARequestWithoutMetaWith400', async () => {
    const reply = await client.postRaw({ jsonrpc: '2.0', id: 3, method: 'tools/list', params: {} })
    expect(reply.status).toBe(400)
    expect(errorOf(reply).code).toBe(-32602)
    expect(reply.body?.id).toBe(3)
  })

  it('refusesARequestWithoutParamsWith400', async () => {
    const reply = await client.postRaw({ jsonrpc: '2.0', id: 4, method: 'tools/list' })
    expect(reply.status).toBe(400)
    expect(errorOf(reply).code).toBe(-32602)
  })

  it('refusesMissingClientCapabilitiesWith400', async () => {
    const reply = await client.postRaw({
      jsonrpc: '2.0',
      id: 5,
      method: 'tools/list',
      params: { _meta: { [META.protocolVersion]: VERSION } },
    })
    expect(reply.status).toBe(400)
    expect(errorOf(reply).code).toBe(-32602)
  })

  it('refusesAnUnsupportedVersionWithSupportedAndRequested', async () => {
    const reply = await client.request(
      'tools/list',
      {},
      {
        meta: { [META.protocolVersion]: '1900-01-01' },
        headers: { 'mcp-protocol-version': '1900-01-01' },
      },
    )
    expect(reply.status).toBe(400)
    const error = errorOf(reply)
    expect(error.code).toBe(-32022)
    expect(error.data).toEqual({ supported: [VERSION], requested: '1900-01-01' })
  })

  it('refusesA2025VersionInAModernEnvelope', async () => {
    const reply = await client.request(
      'tools/list',
      {},
      {
        meta: { [META.protocolVersion]: '2025-11-25' },
        headers: { 'mcp-protocol-version': '2025-11-25' },
      },
    )
    expect(reply.status).toBe(400)
    expect(errorOf(reply).code).toBe(-32022)
  })

  it('refusesAnUnknownMethodWith404', async () => {
    const reply = await client.request('tools/frobnicate')
    expect(reply.status).toBe(404)
    expect(errorOf(reply).code).toBe(-32601)
  })

  it('refusesRemovedMethodsWith404', async () => {
    for (const method of ['ping', 'logging/setLevel', 'resources/subscribe']) {
      const reply = await client.request(method)
      expect(reply.status).toBe(404)
      expect(errorOf(reply).code).toBe(-32601)
    }
  })

  it('refusesABadLogLevelWithInvalidParams', async () => {
    const reply = await client.request('tools/list', {}, { meta: { [META.logLevel]: 'verbose' } })
    expect(errorOf(reply).code).toBe(-32602)
  })

  it('refusesAJsonRpcResponseBodyWith400', async () => {
    const reply = await client.postRaw({ jsonrpc: '2.0', id: 9, result: {} })
    expect(reply.status).toBe(400)
    expect(errorOf(reply).code).toBe(-32600)
  })

  it('acceptsANotificationWith202AndAnEmptyBody', async () => {
    const reply = await client.postRaw(
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { 'mcp-method': null, 'mcp-protocol-version': null },
    )
    expect(reply.status).toBe(202)
    expect(reply.raw).toBe('')
  })
})

describe('header mirrors', () => {
  it('refusesAVersionHeaderThatDiffersFromTheBody', async () => {
    const reply = await client.request(
      'tools/list',
      {},
      { headers: { 'mcp-protocol-version': '2025-11-25' } },
    )
    expect(reply.status).toBe(400)
    expect(errorOf(reply).code).toBe(-32020)
  })

  it('refusesAMissingVersionHeader', async () => {
    const reply = await client.request('tools/list', {}, { headers: { 'mcp-protocol-version': null } })
    expect(reply.status).toBe(400)
    expect(errorOf(reply).code).toBe(-32020)
  })

  it('refusesAMethodHeaderThatDiffersOrIsMissing', async () => {
    for (const value of ['tools/call', 'TOOLS/LIST', null]) {
      const reply = await client.request('tools/list', {}, { headers: { 'mcp-method': value } })
      expect(reply.status).toBe(400)
      expect(errorOf(reply).code).toBe(-32020)
    }
  })

  it('refusesANameHeaderThatDiffersOrIsMissing', async () => {
    for (const value of ['typed', 'Echo', null]) {
      const reply = await client.callTool('echo', { text: 'x' }, { headers: { 'mcp-name': value } })
      expect(reply.status).toBe(400)
      expect(errorOf(reply).code).toBe(-32020)
    }
  })

  it('refusesAResourceNameHeaderThatIsNotTheUri', async () => {
    const reply = await client.request(
      'resources/read',
      { uri: 'config://server' },
      { headers: { 'mcp-name': 'server-config' } },
    )
    expect(reply.status).toBe(400)
    expect(errorOf(reply).code).toBe(-32020)
  })

  it('acceptsANameHeaderInTheBase64Sentinel', async () => {
    const encoded = `=?base64?${Buffer.from('echo').toString('base64')}?=`
    const reply = await client.callTool('echo', { text: 'b64' }, { headers: { 'mcp-name': encoded } })
    expect(reply.status).toBe(200)
    expect(textOf(resultOf(reply))).toBe('echo: b64')
  })

  it('refusesABadBase64Sentinel', async () => {
    const reply = await client.callTool(
      'echo',
      { text: 'x' },
      { headers: { 'mcp-name': '=?base64?ZWNob!!?=' } },
    )
    expect(reply.status).toBe(400)
    expect(errorOf(reply).code).toBe(-32020)
  })

  it('refusesARepeatedVersionOrMethodHeader', async () => {
    const { headers, body } = requestParts('tools/list', {})
    const repeats: Array<Record<string, string[]>> = [
      { 'mcp-protocol-version': [VERSION, VERSION] },
      { 'mcp-method': ['tools/list', 'tools/list'] },
    ]
    for (const extra of repeats) {
      const reply = await rawPost(main.url, { ...headers, ...extra }, body)
      expect(reply.status).toBe(400)
      expect((JSON.parse(reply.body) as { error: { code: number } }).error.code).toBe(-32020)
    }
  })

  it('ignoresANameHeaderOnAMethodWithoutAName', async () => {
    const reply = await client.request('tools/list', {}, { headers: { 'mcp-name': 'anything' } })
    expect(reply.status).toBe(200)
    expect(resultOf(reply).tools).toBeDefined()
  })

  it('refusesARepeatedNameHeader', async () => {
    const { headers, body } = requestParts('tools/call', { name: 'echo', arguments: { text: 'x' } })
    for (const values of [
      ['echo', 'echo'],
      ['echo', 'typed'],
    ]) {
      const reply = await rawPost(main.url, { ...headers, 'mcp-name': values }, body)
      expect(reply.status).toBe(400)
      expect((JSON.parse(reply.body) as { error: { code: number } }).error.code).toBe(-32020)
    }
  })
})

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

describe('HTTP guards', () => {
  const listBody = () => requestParts('tools/list', {})

  it('answersGetAndDeleteWith405', async () => {
    for (const method of ['GET', 'DELETE']) {
      const response = await fetch(main.url, {
        method,
        headers: { accept: 'application/json, text/event-stream' },
      })
      expect(response.status).toBe(405)
      await response.body?.cancel()
    }
  })

  it('answersABadAcceptWith406', async () => {
    const reply = await client.postRaw(listBody().body, { accept: 'application/json' })
    expect(reply.status).toBe(406)
  })

  it('answersABadContentTypeWith415', async () => {
    const reply = await client.postRaw(listBody().body, { 'content-type': 'text/plain' })
    expect(reply.status).toBe(415)
  })

  it('answersAnOversizeBodyWith413', async () => {
    const big = {
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/list',
      params: { _meta: envelope(), pad: 'x'.repeat(10_000) },
    }
    const reply = await client.postRaw(big)
    expect(reply.status).toBe(413)
  })

  it('answersOversizeHeadersWith431', async () => {
    const { headers, body } = listBody()
    const reply = await rawPost(main.url, { ...headers, 'x-padding': 'y'.repeat(10_000) }, body)
    expect(reply.status).toBe(431)
  })

  it('refusesAForeignHostWith403', async () => {
    const { headers, body } = listBody()
    const reply = await rawPost(main.url, { ...headers, host: 'evil.example' }, body)
    expect(reply.status).toBe(403)
  })

  it('refusesAForeignOriginWith403', async () => {
    const reply = await client.postRaw(listBody().body, { origin: 'http://evil.example' })
    expect(reply.status).toBe(403)
  })

  it('acceptsALocalhostOrigin', async () => {
    const reply = await client.postRaw(listBody().body, { origin: `http://localhost:${main.port}` })
    expect(reply.status).toBe(200)
    expect(resultOf(reply).tools).toBeDefined()
  })

  it('answersOtherPathsWith404', async () => {
    const { headers, body } = listBody()
    const response = await fetch(main.url.replace('/mcp', '/other'), { method: 'POST', headers, body })
    expect(response.status).toBe(404)
    await response.body?.cancel()
  })
})

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

describe('prompts and completion', () => {
  let running: RunningServer
  let prompts: McpHttpClient

  beforeAll(async () => {
    const app = createServer({ name: 'it-prompts', version: '1.0.0', logger: capturingLogger() })
    app.prompt(
      'greet',
      {
        description: 'Greets in a language',
        args: z.object({ language: z.string(), tone: z.string().optional() }),
        complete: {
          language: (value) => ['english', 'french', 'german', 'finnish'].filter((l) => l.startsWith(value)),
        },
      },
      ({ language }) => ({
        messages: [{ role: 'user', content: { type: 'text', text: `Say hello in ${language}` } }],
      }),
    )
    running = await listen(app, { port: 0 })
    prompts = new McpHttpClient(running.url)
  })
  afterAll(async () => {
    await running.close()
  })

  it('listsTheHandshakeVersionsTooOnADualEraServer', async () => {
    const result = resultOf(await prompts.request('server/discover'))
    expect(result.supportedVersions).toEqual(expect.arrayContaining([VERSION, '2025-11-25']))
    expect((result.supportedVersions as string[])[0]).toBe(VERSION)
  })

  it('completesAPromptArgument', async () => {
    const reply = await prompts.request('completion/complete', {
      ref: { type: 'ref/prompt', name: 'greet' },
      argument: { name: 'language', value: 'f' },
    })
    const result = resultOf(reply)
    expect(result.completion).toEqual({ values: ['french', 'finnish'], total: 2, hasMore: false })
    expect(result.resultType).toBe('complete')
    expect(result).not.toHaveProperty('ttlMs')
  })

  it('listsPromptsWithRequiredFlags', async () => {
    const result = resultOf(await prompts.request('prompts/list'))
    expect(result.prompts).toEqual([
      {
        name: 'greet',
        description: 'Greets in a language',
        arguments: [
          { name: 'language', required: true },
          { name: 'tone', required: false },
        ],
      },
    ])
  })

  it('refusesAMissingRequiredPromptArgument', async () => {
    const reply = await prompts.request('prompts/get', { name: 'greet', arguments: {} })
    expect(errorOf(reply).code).toBe(-32602)
  })
})

describe('subscriptions/listen', () => {
  async function listenOn(url: string, id: string | number, notifications: Json): Promise<SseReader> {
    const response = await new McpHttpClient(url).open('subscriptions/listen', { notifications }, { id })
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/)
    return new SseReader(response)
  }

  async function serverWithPrompt(): Promise<{ app: McpServer; running: RunningServer }> {
    const app = createServer({ name: 'it-listen', version: '1.0.0', logger: capturingLogger() })
    app.tool('first', { description: 'first tool' }, () => 'first')
    app.prompt('p1', { description: 'a prompt' }, () => ({ messages: [] }))
    return { app, running: await listen(app, { port: 0 }) }
  }

  it('acknowledgesFirstWithTheRequestIdAsSubscriptionIdOfTheSameType', async () => {
    const { running } = await serverWithPrompt()
    try {
      for (const id of ['listen-a', 77]) {
        const stream = await listenOn(running.url, id, {
          toolsListChanged: true,
          resourceSubscriptions: ['x://y'],
        })
        const ack = await stream.next()
        expect(ack?.method).toBe('notifications/subscriptions/acknowledged')
        const params = ack?.params as Json
        expect((params._meta as Json)[META.subscriptionId]).toBe(id)
        // No resources on this server: resourceSubscriptions is not honoured.
        expect(params.notifications).toEqual({ toolsListChanged: true })
        await stream.cancel()
      }
    } finally {
      await running.close()
    }
  })

  it('deliversAToolsListChangeAfterARuntimeRegistration', async () => {
    const { app, running } = await serverWithPrompt()
    try {
      const stream = await listenOn(running.url, 'sub-1', { toolsListChanged: true })
      expect((await stream.next())?.method).toBe('notifications/subscriptions/acknowledged')
      app.tool('second', { description: 'added at runtime' }, () => 'second')
      const change = await stream.next()
      expect(change?.method).toBe('notifications/tools/list_changed')
      expect((paramsOf(change)._meta as Json)[META.subscriptionId]).toBe('sub-1')
      expect(change).not.toHaveProperty('id')
      await stream.cancel()
    } finally {
      await running.close()
    }
  })

  it('neverSendsAToolsNotificationToAPromptsOnlySubscription', async () => {
    const { app, running } = await serverWithPrompt()
    try {
      const stream = await listenOn(running.url, 5, { promptsListChanged: true })
      const ack = await stream.next()
      expect(paramsOf(ack).notifications).toEqual({ promptsListChanged: true })
      app.tool('second', { description: 'added at runtime' }, () => 'second')
      app.removeTool('first')
      expect(await stream.quietFor(200)).toBe(true)
      app.prompt('p2', { description: 'another prompt' }, () => ({ messages: [] }))
      const change = await stream.next()
      expect(change?.method).toBe('notifications/prompts/list_changed')
      expect((paramsOf(change)._meta as Json)[META.subscriptionId]).toBe(5)
      await stream.cancel()
    } finally {
      await running.close()
    }
  })

  it('endsTheStreamWithTheListenResultWhenTheServerCloses', async () => {
    const { app, running } = await serverWithPrompt()
    try {
      const stream = await listenOn(running.url, 'closing', { toolsListChanged: true })
      await stream.next()
      await app.close()
      const final = await stream.next()
      expect(final).toEqual({
        jsonrpc: '2.0',
        id: 'closing',
        result: { resultType: 'complete', _meta: { [META.subscriptionId]: 'closing' } },
      })
      expect(await stream.next()).toBeUndefined()
      expect(stream.ended).toBe(true)
    } finally {
      await running.close()
    }
  })

  it('sendsKeepAliveCommentsOnAnIdleListenStream', async () => {
    const app = createServer({ name: 'it-keepalive', version: '1.0.0', logger: capturingLogger() })
    app.tool('t', { description: 't' }, () => 't')
    const running = await listen(app, { port: 0, keepAliveMs: 40 })
    try {
      const response = await new McpHttpClient(running.url).open('subscriptions/listen', {
        notifications: { toolsListChanged: true },
      })
      expect(response.headers.get('x-accel-buffering')).toBe('no')
      const stream = new SseReader(response)
      await stream.next()
      expect(await stream.quietFor(150)).toBe(true)
      expect(stream.seen).toMatch(/^: keep-alive$/m)
      await stream.cancel()
    } finally {
      await running.close()
    }
  })

  it('deliversResourceUpdatesForSubscribedUrisAndTheirSubResources', async () => {
    const app = createServer({ name: 'it-resources', version: '1.0.0', logger: capturingLogger() })
    app.resource('file:///project', { name: 'project' }, (uri) => ({ contents: [{ uri, text: 'p' }] }))
    const running = await listen(app, { port: 0 })
    try {
      const stream = await listenOn(running.url, 'res', { resourceSubscriptions: ['file:///project'] })
      const ack = await stream.next()
      expect(paramsOf(ack).notifications).toEqual({ resourceSubscriptions: ['file:///project'] })
      app.notifyResourceUpdated('file:///elsewhere')
      app.notifyResourceUpdated('file:///projector')
      app.notifyResourceUpdated('file:///project/src/a.ts')
      const update = await stream.next()
      expect(update).toEqual({
        jsonrpc: '2.0',
        method: 'notifications/resources/updated',
        params: { uri: 'file:///project/src/a.ts', _meta: { [META.subscriptionId]: 'res' } },
      })
      expect(await stream.quietFor(100)).toBe(true)
      await stream.cancel()
    } finally {
      await running.close()
    }
  })

  it('refusesAListenWithoutANotificationsFilter', async () => {
    const { running } = await serverWithPrompt()
    try {
      const reply = await new McpHttpClient(running.url).request('subscriptions/listen', {})
      expect(errorOf(reply).code).toBe(-32602)
    } finally {
      await running.close()
    }
  })
})

describe('headers sent by the helper', () => {
  it('mirrorsMethodVersionAndName', () => {
    const headers = mcpHeaders('tools/call', { name: 'echo', _meta: envelope() })
    expect(headers).toMatchObject({
      'mcp-method': 'tools/call',
      'mcp-protocol-version': VERSION,
      'mcp-name': 'echo',
    })
  })
})
