/**
 * @module extensions.test
 * The extension contract as a third party meets it: settings advertised while the extension is
 * offered (and only in its revisions), asked again only when its usage changes, definitions it
 * hides from a request neither listed nor callable, methods that exist only then, the declaration
 * a method may demand, the `Mcp-Name` field it names, options checked and kept at registration,
 * `_meta` added to listed definitions, and the collisions refused when the server is created.
 */
import { describe, expect, it } from 'vitest'
import { fetchClient, fetchFace } from '../../../../../test/helpers/fetch-client.ts'
import {
  bearer,
  bearerJsonAuth,
  type Json,
  type McpHttpClient,
  type Reply,
} from '../../../../../test/helpers/mcp-http.ts'
import { silentLogger } from '../../../../../test/helpers/silent-logger.ts'
import { TesseraError } from '../../errors.ts'
import { createServer } from '../create-server.ts'
import type { McpServer } from '../mcp-server.ts'
import type { Extension } from './extension.ts'

const ID = 'com.example/weights'
const noop = () => ({ content: [] })

/** Tools may carry a `weight`; `weights/get` tells a tool's weight; advertised while one has it. */
function weights(overrides: Partial<Extension> = {}): Extension {
  return {
    id: ID,
    settings: (usage) => (usage.tools > 0 ? { unit: 'kg', tools: usage.tools } : undefined),
    tools: {
      names: ['weight'],
      define: ({ config, label }) => {
        if (config.weight === undefined) return undefined
        if (typeof config.weight !== 'number' || !(config.weight > 0))
          throw new TypeError(`${label}: weight must be a positive number.`)
        return { data: config.weight, meta: { [ID]: { weight: config.weight } } }
      },
    },
    methods: {
      'weights/get': {
        nameParam: 'name',
        run: ({ params, dataOf, declared }) => {
          const weight = dataOf('tool', String(params.name))
          if (weight === undefined)
            throw new TesseraError('TESSERA_INVALID_PARAMS', 'Invalid params: that tool has no weight.')
          return { weight, declared }
        },
      },
    },
    ...overrides,
  }
}

function serverWith(...extensions: Extension[]): McpServer {
  return createServer({ name: 'ext', version: '1.0.0', extensions, logger: silentLogger })
}

function weighted(server: McpServer, name = 'lift', weight: unknown = 3): McpServer {
  return server.tool(name, { description: 'lifts', weight } as never, noop)
}

const declaring = { extensions: { [ID]: { precision: 2 } } }

/** `weights/get` as a conforming client sends it: `Mcp-Name` mirrors `name`. */
function getWeight(client: McpHttpClient, name: string, caps?: Json): Promise<Reply> {
  return client.request('weights/get', { name }, { caps, headers: { 'mcp-name': name } })
}

const resultOf = (reply: Reply) => reply.body!.result as Json
const errorOf = (reply: Reply) => reply.body!.error as Json
const capabilitiesOf = async (client: McpHttpClient) =>
  resultOf(await client.request('server/discover')).capabilities as Json

describe('extensions', () => {
  it('advertisesItsSettingsWhileADefinitionUsesItAndServesItsMethodsOnlyThen', async () => {
    const server = serverWith(weights()).tool('plain', { description: 'plain' }, noop)
    const client = fetchClient(server)
    expect(await capabilitiesOf(client)).toEqual({ tools: { listChanged: true } })
    expect(errorOf(await getWeight(client, 'plain'))).toMatchObject({
      code: -32601,
    })
    weighted(server)
    expect((await capabilitiesOf(client)).extensions).toEqual({
      [ID]: { unit: 'kg', tools: 1 },
    })
    expect(resultOf(await getWeight(client, 'lift', declaring))).toMatchObject({
      weight: 3,
      declared: true,
      resultType: 'complete',
    })
    server.removeTool('lift')
    expect(await capabilitiesOf(client)).toEqual({ tools: { listChanged: true } })
  })

  it('asksForItsSettingsOnceUntilARegistrationChangesItsUsage', async () => {
    const asked: number[] = []
    const counted = weights({
      settings: (usage) => {
        asked.push(usage.tools)
        return usage.tools > 0 ? { tools: usage.tools } : undefined
      },
    })
    const server = weighted(serverWith(counted))
    const client = fetchClient(server)
    for (let i = 0; i < 3; i++) await capabilitiesOf(client)
    await getWeight(client, 'lift', declaring)
    expect(asked).toEqual([1])
    server.tool('plain', { description: 'plain' }, noop)
    await capabilitiesOf(client)
    expect(asked).toEqual([1])
    weighted(server, 'press', 5)
    expect((await capabilitiesOf(client)).extensions).toEqual({ [ID]: { tools: 2 } })
    server.removeTool('press')
    expect((await capabilitiesOf(client)).extensions).toEqual({ [ID]: { tools: 1 } })
    expect(asked).toEqual([1, 2, 1])
  })

  it('hidesWhatItsVisibleRefusesAndListsOnlyPermittedAmongTheRest', async () => {
    const tools = {
      ...weights().tools!,
      visible: (_weight: unknown, { declared }: { declared: boolean }) => declared,
    }
    const server = createServer({
      name: 'ext',
      version: '1.0.0',
      extensions: [weights({ tools })],
      logger: silentLogger,
      listOnlyPermitted: true,
    })
    weighted(server).tool('plain', { description: 'plain' }, noop)
    server.tool('admin', { description: 'admin', scopes: ['ops:admin'] }, noop)
    const client = fetchClient(server, { auth: bearerJsonAuth })
    const admin = bearer({ issuer: 'idp', subject: 'ann', scopes: ['ops:admin'] })
    const listed = async (caps?: Json, headers?: Record<string, string>) =>
      (resultOf(await client.request('tools/list', {}, { caps, headers })).tools as Json[]).map((t) => t.name)
    expect(await listed()).toEqual(['plain'])
    expect(await listed(declaring)).toEqual(['lift', 'plain'])
    expect(await listed(declaring, admin)).toEqual(['lift', 'plain', 'admin'])
    expect(await listed(undefined, admin)).toEqual(['plain', 'admin'])
    server.removeTool('admin')
    expect(await listed(declaring, admin)).toEqual(['lift', 'plain'])
    expect(await listed()).toEqual(['plain'])
    const call = { name: 'lift', arguments: {} }
    expect(
      errorOf(await client.request('tools/call', call, { headers: { 'mcp-name': 'lift' } })),
    ).toMatchObject({
      code: -32602,
    })
  })

  it('aMethodThatNeedsTheDeclarationRefusesARequestWithoutItNamingTheExtension', async () => {
    const methods = { 'weights/get': { ...weights().methods!['weights/get']!, needsDeclaration: true } }
    const client = fetchClient(weighted(serverWith(weights({ methods }))))
    const refused = await getWeight(client, 'lift', {})
    expect(refused.status).toBe(400)
    expect(refused.body?.error).toMatchObject({
      code: -32021,
      data: { requiredCapabilities: { extensions: { [ID]: {} } } },
    })
    expect(errorOf(refused).message).toContain(`declare the ${ID} extension`)
    expect(resultOf(await getWeight(client, 'lift', declaring))).toMatchObject({ weight: 3 })
  })

  it('checksMcpNameAgainstTheParamTheMethodNames', async () => {
    const client = fetchClient(weighted(serverWith(weights())))
    expect(resultOf(await getWeight(client, 'lift'))).toMatchObject({ weight: 3 })
    const mismatch = await client.request(
      'weights/get',
      { name: 'lift' },
      { headers: { 'mcp-name': 'other' } },
    )
    expect(mismatch.status).toBe(400)
    expect(mismatch.body?.error).toMatchObject({ code: -32020 })
    const missing = await client.request('weights/get', { name: 'lift' }, { headers: { 'mcp-name': null } })
    expect(missing.body?.error).toMatchObject({ code: -32020 })
  })

  it('anErrorFromTheTableKeepsItsCodeAndAnyOtherIsAnInternalErrorThatSaysNothing', async () => {
    const methods = {
      'weights/get': weights().methods!['weights/get']!,
      'weights/crash': {
        run: () => {
          throw new Error('secret detail')
        },
      },
    }
    const client = fetchClient(weighted(serverWith(weights({ methods }))))
    expect(errorOf(await getWeight(client, 'nope'))).toMatchObject({
      code: -32602,
      message: 'Invalid params: that tool has no weight.',
    })
    const crash = await client.request('weights/crash')
    expect(errorOf(crash)).toMatchObject({ code: -32603 })
    expect(crash.raw).not.toContain('secret detail')
  })

  it('checksItsOptionsAtRegistrationAndStillRefusesAMisspelledOne', () => {
    const server = serverWith(weights())
    expect(() => weighted(server, 'bad', -1)).toThrow("Tool 'bad': weight must be a positive number.")
    expect(() => server.tool('typo', { description: 'x', wieght: 2 } as never, noop)).toThrow(/wieght/)
    expect(() => weighted(createServer({ name: 'plain', version: '1' }))).toThrow(/weight/)
  })

  it('addsItsMetaToTheListedDefinitionAndRefusesAKeyTheApplicationSetToo', async () => {
    const server = weighted(serverWith(weights()))
    const listed = await fetchClient(server).request('tools/list')
    const tool = (resultOf(listed).tools as Json[])[0]!
    expect(tool._meta).toEqual({ [ID]: { weight: 3 } })
    const clash = { description: 'x', weight: 1, _meta: { [ID]: 'mine' } }
    expect(() => server.tool('clash', clash as never, noop)).toThrow(
      `Tool 'clash': _meta.${ID} is set by the ${ID} extension; do not set it too.`,
    )
  })

  it('refusesAnExtensionThatCollidesWhenTheServerIsCreated', () => {
    expect(() => serverWith(weights(), weights())).toThrow(`Extension '${ID}' is installed twice.`)
    expect(() => serverWith(weights({ id: 'weights' }))).toThrow(/must be \{vendor-prefix\}\/\{name\}/)
    const stealing = weights({ methods: { 'tools/call': { run: () => ({}) } } })
    expect(() => serverWith(stealing)).toThrow(
      `Extension '${ID}': method 'tools/call' is already served by the core.`,
    )
    const tasks = weights({ methods: { 'tasks/get': { run: () => ({}) } } })
    expect(() => serverWith(tasks)).toThrow(/already served by the io.modelcontextprotocol\/tasks extension/)
    const option = weights({ tools: { names: ['scopes'], define: () => undefined } })
    expect(() => serverWith(option)).toThrow("option 'scopes' of tools is already read by the core")
  })

  it('setupRegistersWhatTheExtensionServes', async () => {
    const server = serverWith(
      weights({
        settings: undefined,
        setup: (s) =>
          s.resource('weights://table', { name: 'table' }, (uri) => ({
            contents: [{ uri, text: 'lift: 3' }],
          })),
      }),
    )
    const read = await fetchClient(server).request('resources/read', { uri: 'weights://table' })
    expect((resultOf(read).contents as Json[])[0]).toMatchObject({ text: 'lift: 3' })
    expect((await capabilitiesOf(fetchClient(server))).extensions).toEqual({ [ID]: {} })
  })

  it('anExtensionOfOneRevisionIsNeitherAdvertisedNorServedInTheOther', async () => {
    const face = fetchFace(weighted(serverWith(weights({ eras: ['modern'] }))))
    const post = (body: Json, headers: Record<string, string> = {}) =>
      face(
        new Request('http://127.0.0.1/mcp', {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
            ...headers,
          },
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, ...body }),
        }),
      )
    const init = await post({
      method: 'initialize',
      params: {
        protocolVersion: '2025-11-25',
        capabilities: declaring,
        clientInfo: { name: 'c', version: '1' },
      },
    })
    const result = ((await init.json()) as Json).result as Json
    expect((result.capabilities as Json).extensions).toBeUndefined()
    const session = {
      'mcp-session-id': init.headers.get('mcp-session-id')!,
      'mcp-protocol-version': '2025-11-25',
    }
    const call = await post({ method: 'weights/get', params: { name: 'lift' } }, session)
    expect(((await call.json()) as Json).error).toMatchObject({ code: -32601 })
  })
})
