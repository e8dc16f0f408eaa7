/**
 * @module dev-console-try-it.test
 * The development console's own client (the page's `ConsoleClient`, run here in Node) against a
 * protected server with the console over real HTTP on 127.0.0.1: without a token the page is
 * told the 401 and to paste one; with a token it lists tools and templates, calls and reads; a
 * call lacking a scope is told which scope; a refused token, a JSON-RPC error and a server that
 * is gone are each said in words. The token never reaches the console's event stream nor the
 * server's log.
 */

import { listen, type RunningServer } from '@tessera/core/http'
import { wireMappings } from '@tessera/core/protocol'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { explainOutcome } from '../../packages/cli/ui/src/explain-outcome.ts'
import { ConsoleClient } from '../../packages/cli/ui/src/mcp-client.ts'
import { loadOffer } from '../../packages/cli/ui/src/offer.ts'
import { expandTemplate } from '../../packages/cli/ui/src/uri-template.ts'
import { freePort } from '../helpers/logged-process.ts'
import { capturingLogger } from '../helpers/mcp-http.ts'
import { startAuthority, type TestAuthority } from '../helpers/oauth.ts'
import { EventReader } from '../helpers/sse-events.ts'
import { NOTES_TEMPLATE, protectedNotes } from './fixtures/protected-notes.ts'

const REFUSED = wireMappings.TESSERA_UNAUTHORIZED.jsonrpc
const logger = capturingLogger()
let authority: TestAuthority
let running: RunningServer
let metadata: string

beforeAll(async () => {
  const port = await freePort()
  const resource = `http://127.0.0.1:${port}/mcp`
  authority = await startAuthority(resource)
  const { app, auth } = protectedNotes({
    resource,
    issuer: authority.issuer,
    jwks: authority.jwksUrl,
    logger,
  })
  running = await listen(app, { port, auth, devConsole: true })
  metadata = auth.metadataUrl
})
afterAll(async () => {
  await running?.close()
  await authority?.close()
})

const client = (token?: string) => new ConsoleClient(running.url, token)
const withScopes = (scope: string) => authority.mint({ scope, sub: 'ann' })

describe('the console against a protected server', () => {
  it('saysWhyNothingIsOfferedWithoutATokenAndAsksForOne', async () => {
    const offer = await loadOffer(client())
    expect(offer.tools).toEqual([])
    expect(offer.refused.map((r) => [r.method, r.outcome.status])).toEqual([['server/discover', 401]])
    expect(explainOutcome('server/discover', offer.refused[0]!.outcome)).toEqual({
      summary: 'server/discover was refused: HTTP 401 Unauthorized.',
      details: [
        `JSON-RPC error ${REFUSED}: Unauthorized: an access token is required.`,
        'The request carried no token.',
      ],
      advice:
        'This server needs an access token: paste one in “Access token” above. Scopes this server ' +
        `knows: notes:read notes:write. Its authorization server is named in ${metadata}.`,
    })
  })

  it('offersToolsAndTemplatesAndCallsAToolWithAPastedToken', async () => {
    const reader = client(await withScopes('notes:read'))
    const offer = await loadOffer(reader)
    expect(offer.refused).toEqual([])
    expect(offer.tools.map((t) => t.name)).toEqual(['status', 'restart'])
    expect(offer.templates.map((t) => t.uriTemplate)).toEqual([NOTES_TEMPLATE])
    const called = await reader.callTool(offer.tools[0]!, { service: 'checkout' })
    expect(explainOutcome('Calling status', called)).toBeUndefined()
    expect(called.result?.content).toEqual([{ type: 'text', text: 'checkout is green' }])
  })

  it('readsTheResourceATemplateNamesOnceItsVariablesAreFilledIn', async () => {
    const uri = expandTemplate(NOTES_TEMPLATE, { team: 'site reliability', day: '2026-12-02' })
    expect(uri).toBe('notes://teams/site%20reliability?day=2026-12-02')
    const read = await client(await withScopes('notes:read')).request('resources/read', { uri })
    expect(read.result?.contents).toEqual([
      { uri, mimeType: 'text/plain', text: 'notes of site reliability for 2026-12-02' },
    ])
    const withoutDay = expandTemplate(NOTES_TEMPLATE, { team: 'web' })
    const today = await client(await withScopes('notes:read')).request('resources/read', { uri: withoutDay })
    expect(today.result?.contents).toMatchObject([{ text: 'notes of web for today' }])
  })

  it('namesTheScopeACallLacks', async () => {
    const reader = client(await withScopes('notes:read'))
    const restart = (await loadOffer(reader)).tools.find((t) => t.name === 'restart')!
    const refused = await reader.callTool(restart, { service: 'checkout' })
    expect(explainOutcome('Calling restart', refused)).toEqual({
      summary: 'Calling restart was refused: HTTP 403 Forbidden.',
      details: [
        `JSON-RPC error ${REFUSED}: Forbidden: Tool 'restart' needs the scope notes:write.`,
        'The server says: The access token lacks a scope this call needs.',
        'The request carried the token (Authorization: Bearer …).',
      ],
      advice: `Paste a token with the scope notes:write (the token sent lacks it). Its authorization server is named in ${metadata}.`,
    })
  })

  it('saysWhatTheServerHeldAgainstARefusedToken', async () => {
    const past = Math.floor(Date.now() / 1000) - 3600
    const expired = await authority.mint({ iat: past - 60, exp: past })
    const refused = await client(expired).request('server/discover')
    expect(explainOutcome('server/discover', refused)).toEqual({
      summary: 'server/discover was refused: HTTP 401 Unauthorized.',
      details: [
        `JSON-RPC error ${REFUSED}: The access token expired.`,
        'The request carried the token (Authorization: Bearer …).',
      ],
      advice: `The server refused the token: paste another one (for this server, not expired). Its authorization server is named in ${metadata}.`,
    })
  })

  it('explainsAJsonRpcErrorAndAServerThatDoesNotAnswer', async () => {
    const reader = client(await withScopes('notes:read'))
    const unknown = await reader.callTool({ name: 'nope', inputSchema: { type: 'object' } }, {})
    expect(explainOutcome('Calling nope', unknown)).toEqual({
      summary: 'Calling nope failed: the server answered with an error (HTTP 200 OK).',
      details: [
        `JSON-RPC error ${wireMappings.TESSERA_INVALID_PARAMS.jsonrpc}: Invalid params: unknown tool 'nope'.`,
        'The request carried the token (Authorization: Bearer …).',
      ],
    })
    const gone = await new ConsoleClient(`http://127.0.0.1:${await freePort()}/mcp`).request(
      'server/discover',
    )
    const explained = explainOutcome('server/discover', gone)!
    expect(explained.summary).toBe('server/discover failed: the server did not answer.')
    expect(explained.details[0]).toMatch(
      /^The request did not reach the server \(fetch failed: .*ECONNREFUSED/,
    )
    expect(explained.advice).toBe(
      'Is the server running? `tessera dev` says in its terminal when the server exits or restarts.',
    )
  })

  it('neverPublishesTheTokenOnTheConsoleStreamNorInTheLog', async () => {
    const stream = await fetch(`${new URL(running.url).origin}/_tessera/events`)
    const events = new EventReader(stream)
    // What earlier tests did comes first: the three requests below are what arrives after it.
    while (!(await events.quietFor(200))) await events.next()
    const good = await withScopes('notes:read')
    const forged = `${good.slice(0, -8)}AAAAAAAA`
    await client(good).request('server/discover')
    await client(forged).request('server/discover')
    await client(good).callTool({ name: 'restart', inputSchema: { type: 'object' } }, { service: 'x' })
    const ends: string[] = []
    while (ends.length < 3) {
      const event = await events.next(3_000)
      if (event === undefined) throw new Error('the console stream ended')
      if (event.event === 'request-end') ends.push(event.data)
    }
    expect(ends.map((e) => JSON.parse(e).request.subject)).toEqual(['ann', undefined, 'ann'])
    for (const token of [good, forged]) {
      expect(events.seen).not.toContain(token)
      expect(JSON.stringify(logger.entries)).not.toContain(token)
    }
    await events.cancel()
  })
})
