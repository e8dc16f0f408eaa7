/**
 * @module resource-subscription-scopes.test
 * Following a resource needs what reading it needs, over real HTTP, in both eras: a
 * `subscriptions/listen` naming a resource the token may not read is refused with the read's 403;
 * a bare prefix names no resource and follows nothing; an update of a sub-resource reaches a
 * stream only when its token may read that sub-resource; and a 2025-11-25 `resources/subscribe`
 * is refused like the read (and, naming no resource, as not found), its updates reaching a GET stream only when that stream's token may
 * read the resource.
 */
import { type AuthInfo, createServer, type McpServer } from '@tessera/core'
import { listen, type RunningServer } from '@tessera/core/http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { HandshakeClient } from '../helpers/handshake-client.ts'
import {
  bearer,
  bearerJsonAuth,
  capturingLogger,
  errorOf,
  type Json,
  McpHttpClient,
  SseReader,
} from '../helpers/mcp-http.ts'
import { EventReader } from '../helpers/sse-events.ts'

const as = (scopes: string[]) =>
  bearer({ subject: 'reader', issuer: 'https://id.example', scopes } as AuthInfo)
const ADMIN = as(['admin'])
const NONE = as([])

let app: McpServer
let running: RunningServer
let client: McpHttpClient

beforeAll(async () => {
  app = createServer({ name: 'it-subscription-scopes', version: '1.0.0', logger: capturingLogger() })
  const text = (uri: string) => ({ contents: [{ uri, text: uri }] })
  app.resource('probe://secret', { name: 'secret', scopes: ['admin'] }, text)
  app.resource('probe://open', { name: 'open' }, text)
  app.resourceTemplate('probe://open/{part}', { name: 'open parts' }, (uri) => text(uri))
  app.resourceTemplate('probe://open/vault/{part}', { name: 'vault', scopes: ['admin'] }, (uri) => text(uri))
  running = await listen(app, { host: '127.0.0.1', port: 0, auth: bearerJsonAuth })
  client = new McpHttpClient(running.url)
})

afterAll(() => running.close())

async function follow(uris: string[], headers: Record<string, string>) {
  const response = await client.open(
    'subscriptions/listen',
    { notifications: { resourceSubscriptions: uris } },
    { headers },
  )
  return response
}

async function acknowledged(stream: SseReader): Promise<Json> {
  const ack = await stream.next()
  expect(ack?.method).toBe('notifications/subscriptions/acknowledged')
  return (ack?.params as Json | undefined)?.notifications as Json
}

describe('resource subscriptions need what reads need', () => {
  it('refusesAListenOnAResourceTheTokenMayNotReadWithTheReadsRefusal', async () => {
    const read = await client.request('resources/read', { uri: 'probe://secret' }, { headers: NONE })
    const response = await follow(['probe://secret'], NONE)
    expect(response.status).toBe(read.status)
    const body = (await response.json()) as { error: unknown }
    expect(body.error).toEqual(errorOf(read))
  })

  it('followsNothingForABarePrefixAndGetsNoUpdateOfWhatIsBelowIt', async () => {
    const stream = new SseReader(await follow(['probe:', 'probe://', 'probe://nothing-here'], NONE))
    expect(await acknowledged(stream)).toEqual({})
    app.notifyResourceUpdated('probe://secret')
    expect(await stream.quietFor(300)).toBe(true)
    await stream.cancel()
  })

  it('deliversASubResourceUpdateOnlyToATokenThatMayReadIt', async () => {
    const weak = new SseReader(await follow(['probe://open'], NONE))
    const strong = new SseReader(await follow(['probe://open'], ADMIN))
    expect(await acknowledged(weak)).toEqual({ resourceSubscriptions: ['probe://open'] })
    expect(await acknowledged(strong)).toEqual({ resourceSubscriptions: ['probe://open'] })
    app.notifyResourceUpdated('probe://open/vault/keys')
    app.notifyResourceUpdated('probe://open/readme')
    const uriOf = (message: Json | undefined) => (message?.params as Json | undefined)?.uri
    expect(uriOf(await strong.next())).toBe('probe://open/vault/keys')
    expect(uriOf(await strong.next())).toBe('probe://open/readme')
    expect(uriOf(await weak.next())).toBe('probe://open/readme')
    expect(await weak.quietFor(200)).toBe(true)
    await weak.cancel()
    await strong.cancel()
  })

  it('refusesAHandshakeSubscribeToAResourceTheSessionMayNotReadOrToNoResource', async () => {
    const session = await HandshakeClient.connect(running.url, { headers: NONE })
    const refused = await session.request('resources/subscribe', { uri: 'probe://secret' })
    expect(refused.body?.error).toMatchObject({ data: { requiredScopes: ['admin'] } })
    const allowed = await session.request('resources/subscribe', { uri: 'probe://open' })
    expect(allowed.body?.result).toEqual({})
    const prefix = await session.request('resources/subscribe', { uri: 'probe:' })
    expect(prefix.body?.error).toMatchObject({ code: -32002, data: { uri: 'probe:' } })
  })

  it('keepsAnUpdateOffAHandshakeStreamWhoseTokenMayNotReadTheResource', async () => {
    const session = await HandshakeClient.connect(running.url, { headers: ADMIN })
    expect((await session.request('resources/subscribe', { uri: 'probe://secret' })).body?.result).toEqual({})
    const weak = new EventReader(await session.get(undefined, NONE))
    const strong = new EventReader(await session.get(undefined, ADMIN))
    await weak.next()
    await strong.next()
    app.notifyResourceUpdated('probe://secret')
    expect((await strong.next())?.message).toMatchObject({ params: { uri: 'probe://secret' } })
    expect(await weak.quietFor(200)).toBe(true)
    await weak.cancel()
    await strong.cancel()
  })
})
