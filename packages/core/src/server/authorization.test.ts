import { describe, expect, it } from 'vitest'
import { fetchClient } from '../../../../test/helpers/fetch-client.ts'
import { bearer, bearerJsonAuth, errorOf, resultOf } from '../../../../test/helpers/mcp-http.ts'
import { silentLogger } from '../../../../test/helpers/silent-logger.ts'
import { unchecked } from '../../../../test/helpers/unchecked.ts'
import { createServer } from './create-server.ts'

function app(options: { listOnlyPermitted?: boolean } = {}) {
  const server = createServer({
    name: 'scoped',
    version: '1.0.0',
    logger: silentLogger,
    cache: { default: { ttlMs: 60_000, cacheScope: 'public' } },
    ...options,
  })
  server.tool('status', { description: 'Reads', scopes: ['ops:read'] }, () => 'green')
  server.tool('rollback', { description: 'Writes', scopes: ['ops:read', 'ops:rollback'] }, () => 'rolled')
  server.tool('ping', { description: 'Anyone' }, () => 'pong')
  server.prompt('triage', { description: 'Scoped prompt', scopes: ['ops:read'] }, () => ({ messages: [] }))
  server.resource('ops://catalog', { name: 'catalog', scopes: ['ops:read'] }, (uri) => ({
    contents: [{ uri, text: '{}' }],
  }))
  server.resource('ops://public', { name: 'public' }, (uri) => ({ contents: [{ uri, text: 'hi' }] }))
  return server
}

const withChallenge: typeof bearerJsonAuth = {
  ...bearerJsonAuth,
  insufficientScope: (scopes) => `Bearer error="insufficient_scope", scope="${scopes.join(' ')}"`,
}
const reader = bearer({ issuer: 'idp', subject: 'ann', scopes: ['ops:read'] })
const operator = bearer({ issuer: 'idp', subject: 'bob', scopes: ['ops:read', 'ops:rollback'] })

describe('required scopes', () => {
  it('refusesACallWithout403TheWholeScopeListAndTheChallenge', async () => {
    const client = fetchClient(app(), { auth: withChallenge })
    const reply = await client.request('tools/call', { name: 'rollback', arguments: {} }, { headers: reader })
    expect(reply.status).toBe(403)
    expect(errorOf(reply)).toEqual({
      code: -32600,
      message: "Forbidden: Tool 'rollback' needs the scope ops:read ops:rollback.",
      data: { requiredScopes: ['ops:read', 'ops:rollback'] },
    })
    expect(reply.headers.get('www-authenticate')).toBe(
      'Bearer error="insufficient_scope", scope="ops:read ops:rollback"',
    )
  })

  it('runsACallWhoseScopesTheCallerHolds', async () => {
    const client = fetchClient(app(), { auth: withChallenge })
    const reply = await client.request(
      'tools/call',
      { name: 'rollback', arguments: {} },
      { headers: operator },
    )
    expect(resultOf(reply)).toMatchObject({ content: [{ type: 'text', text: 'rolled' }] })
  })

  it('refusesAnAnonymousCallerAScopedPromptAndResourceButNotAnOpenOne', async () => {
    const client = fetchClient(app(), { auth: withChallenge })
    expect((await client.request('prompts/get', { name: 'triage' })).status).toBe(403)
    expect((await client.request('resources/read', { uri: 'ops://catalog' })).status).toBe(403)
    expect(resultOf(await client.request('resources/read', { uri: 'ops://public' }))).toMatchObject({
      cacheScope: 'public',
    })
    expect(resultOf(await client.request('tools/call', { name: 'ping', arguments: {} }))).toMatchObject({
      content: [{ text: 'pong' }],
    })
  })

  it('marksAScopedResourcePrivateToTheCaller', async () => {
    const client = fetchClient(app(), { auth: withChallenge })
    const read = resultOf(
      await client.request('resources/read', { uri: 'ops://catalog' }, { headers: reader }),
    )
    expect(read.cacheScope).toBe('private')
  })

  it('checksScopesBeforeValidatingArguments', async () => {
    const server = createServer({ name: 's', version: '1', logger: silentLogger })
    server.tool(
      'typed',
      { description: 'Typed', scopes: ['x'], input: { type: 'object', required: ['n'] } },
      () => 'ok',
    )
    const reply = await fetchClient(server, { auth: bearerJsonAuth }).request('tools/call', { name: 'typed' })
    expect(reply.status).toBe(403)
  })

  it('refusesCompletionsOfAScopedPromptWithoutItsScope', async () => {
    const server = createServer({ name: 's', version: '1', logger: silentLogger })
    server.prompt(
      'pick',
      { description: 'd', scopes: ['x'], args: [{ name: 'a' }], complete: { a: () => ['secret-value'] } },
      () => ({ messages: [] }),
    )
    const client = fetchClient(server, { auth: bearerJsonAuth })
    const params = { ref: { type: 'ref/prompt', name: 'pick' }, argument: { name: 'a', value: '' } }
    const refused = await client.request('completion/complete', params)
    expect(refused.status).toBe(403)
    expect(refused.raw).not.toContain('secret-value')
    const granted = await client.request('completion/complete', params, {
      headers: bearer({ issuer: 'i', subject: 's', scopes: ['x'] }),
    })
    expect(resultOf(granted).completion).toMatchObject({ values: ['secret-value'] })
  })

  it('refusesABadScopesOptionAtRegistration', () => {
    const server = createServer({ name: 's', version: '1', logger: silentLogger })
    expect(() => server.tool('t', { description: 'd', scopes: ['a b'] }, () => '')).toThrow(TypeError)
    expect(() => server.tool('u', { description: 'd', scopes: unchecked('a') }, () => '')).toThrow(
      /scopes must be an array/,
    )
  })
})

describe('lists', () => {
  const names = (list: unknown, key: string) =>
    ((list as Record<string, { name: string }[]>)[key] ?? []).map((entry) => entry.name)

  it('showEverythingByDefault', async () => {
    const client = fetchClient(app(), { auth: withChallenge })
    const tools = resultOf(await client.request('tools/list'))
    expect(names(tools, 'tools')).toEqual(['status', 'rollback', 'ping'])
    expect(tools.cacheScope).toBe('public')
  })

  it('showOnlyWhatTheCallerMayUseAndArePrivateWithListOnlyPermitted', async () => {
    const client = fetchClient(app({ listOnlyPermitted: true }), { auth: withChallenge })
    const anonymous = resultOf(await client.request('tools/list'))
    expect(names(anonymous, 'tools')).toEqual(['ping'])
    expect(anonymous.cacheScope).toBe('private')
    expect(names(resultOf(await client.request('tools/list', {}, { headers: reader })), 'tools')).toEqual([
      'status',
      'ping',
    ])
    expect(names(resultOf(await client.request('tools/list', {}, { headers: operator })), 'tools')).toEqual([
      'status',
      'rollback',
      'ping',
    ])
    expect(names(resultOf(await client.request('prompts/list')), 'prompts')).toEqual([])
    expect(names(resultOf(await client.request('resources/list')), 'resources')).toEqual(['public'])
  })
})
