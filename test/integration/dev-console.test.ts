/**
 * @module dev-console.test
 * The development console over real HTTP on 127.0.0.1: its event stream shows each request, the
 * rounds of a multi round-trip call with the state's round and expiry, and the single-use record
 * an answer executed and a replay found done, and a request a rate limit refused with the limit;
 * a foreign Host or Origin is answered 403, a Host
 * sent twice or that is no host and port 400, as on the MCP endpoint; the sandbox page a view is
 * rendered in carries the view's own CSP; it is
 * refused in production and absent from a server that did not ask for it, where nothing is
 * published at all.
 */
import { channel } from 'node:diagnostics_channel'
import { request as httpRequest } from 'node:http'
import { createServer, elicitForm } from '@tessera/core'
import { DEV_CHANNEL, type DevEvent, listen, type RunningServer } from '@tessera/core/http'
import { afterEach, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { HandshakeClient } from '../helpers/handshake-client.ts'
import { McpHttpClient, resultOf, textOf } from '../helpers/mcp-http.ts'
import { silentLogger } from '../helpers/silent-logger.ts'
import { EventReader, type SseEvent } from '../helpers/sse-events.ts'
import { rawRequest } from '../helpers/stalled-post.ts'
import { pollTask, TASK_CAPS } from '../helpers/tasks.ts'

let running: RunningServer | undefined
afterEach(async () => {
  await running?.close()
  running = undefined
})

function app() {
  const server = createServer({ name: 'console-test', version: '1.0.0', logger: silentLogger })
  server.tool(
    'rollback',
    { description: 'rolls back, once per answer', input: z.object({ service: z.string() }), singleUse: true },
    async ({ service }, ctx) => {
      const answer = await ctx.ask(
        'confirm',
        elicitForm({ message: `Roll back ${service}?`, schema: z.object({ ok: z.boolean() }) }),
      )
      return answer.action === 'accept' ? `rolled back ${service}` : 'nothing done'
    },
  )
  return server
}

/** GET on the console with the headers a test chooses (fetch would not send a foreign Host). */
function getRaw(
  port: number,
  path: string,
  headers: Record<string, string>,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, headers }, (res) => {
      let body = ''
      res.on('data', (chunk) => {
        body += chunk
      })
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }))
    })
    req.on('error', reject)
    req.end()
  })
}

async function eventsUntil(reader: EventReader, done: (events: SseEvent[]) => boolean): Promise<SseEvent[]> {
  const events: SseEvent[] = []
  while (!done(events)) {
    const event = await reader.next(3_000)
    if (event === undefined) throw new Error('the console stream ended')
    events.push(event)
  }
  return events
}
const ofType = <T extends DevEvent['type']>(events: SseEvent[], type: T) =>
  events.filter((e) => e.event === type).map((e) => JSON.parse(e.data) as Extract<DevEvent, { type: T }>)

describe('dev console', () => {
  it('showsARollbackAsRequestsWithTheirRoundsAndItsSingleUseRecordDoneThenReplayed', async () => {
    running = await listen(app(), { port: 0, devConsole: true })
    const origin = new URL(running.url).origin
    const stream = await fetch(`${origin}/_tessera/events`)
    expect(stream.status).toBe(200)
    expect(stream.headers.get('content-type')).toBe('text/event-stream')
    const reader = new EventReader(stream)
    const client = new McpHttpClient(running.url)

    const asked = resultOf(await client.callTool('rollback', { service: 'api' }))
    const answer = {
      inputResponses: { confirm: { action: 'accept', content: { ok: true } } },
      requestState: asked.requestState,
    }
    expect(
      resultOf(await client.callTool('rollback', { service: 'api' }, { extra: answer })).content,
    ).toEqual([{ type: 'text', text: 'rolled back api' }])
    await client.callTool('rollback', { service: 'api' }, { extra: answer })

    const events = await eventsUntil(
      reader,
      (seen) => seen.filter((e) => e.event === 'request-end').length === 3,
    )
    const ends = ofType(events, 'request-end').map((e) => e.request)
    expect(ends.map((r) => [r.era, r.method, r.target, r.status])).toEqual([
      ['modern', 'tools/call', 'rollback', 200],
      ['modern', 'tools/call', 'rollback', 200],
      ['modern', 'tools/call', 'rollback', 200],
    ])
    expect(ends.every((r) => typeof r.ms === 'number' && r.ms >= 0)).toBe(true)
    const [first, second, replay] = ends.map((r) => r.id)

    const rounds = ofType(events, 'round')
    const ask = rounds.find((r) => r.request === first)!.asked!
    expect(ask).toMatchObject({ round: 1, questions: ['confirm'], carried: [] })
    expect(ask.expiresAt).toBeGreaterThan(Date.now())
    // The answer names the record of the state the ask sealed: the console threads them by it.
    const answered = rounds.find((r) => r.request === second)!
    expect(answered.answered).toMatchObject({ record: ask.record, round: 1, questions: ['confirm'] })
    expect(answered.actions).toEqual({ confirm: 'accept' })
    expect(JSON.stringify(events)).not.toContain(asked.requestState)

    const records = ofType(events, 'single-use')
    // What the record keeps is the result the answer got, which every copy of the answer gets too.
    const kept = JSON.stringify({ content: [{ type: 'text', text: 'rolled back api' }] })
    expect(records.map((r) => [r.request, r.record, r.status, r.outcome])).toEqual([
      [second, ask.record, 'executed', kept],
      [replay, ask.record, 'replayed', kept],
    ])
    await reader.cancel()
  })

  it('showsATaskWithItsStatusAndAHandshakeSessionOpenedAndEnded', async () => {
    const server = app()
    server.tool(
      'report',
      { description: 'slow report', task: { support: 'optional' } },
      async () => 'report ready',
    )
    running = await listen(server, { port: 0, devConsole: true })
    const reader = new EventReader(await fetch(`${new URL(running.url).origin}/_tessera/events`))
    const client = new McpHttpClient(running.url)
    const created = resultOf(await client.callTool('report', {}, { caps: TASK_CAPS }))
    const taskId = String((created.task as { taskId?: string } | undefined)?.taskId ?? created.taskId)
    await pollTask(client, taskId)
    const events = await eventsUntil(reader, (seen) =>
      ofType(seen, 'task').some((e) => e.taskId === taskId && e.status === 'completed'),
    )
    expect(ofType(events, 'task')[0]).toMatchObject({ taskId, status: 'working' })

    const handshake = await HandshakeClient.connect(running.url)
    const sessionId = handshake.sessionId!
    await handshake.delete()
    const sessions = ofType(
      await eventsUntil(reader, (seen) => ofType(seen, 'session').length === 2),
      'session',
    )
    expect(sessions.map((e) => e.open)).toEqual([true, false])
    expect(sessions[0]!.session).toBe(sessions[1]!.session)
    expect(JSON.stringify(sessions)).not.toContain(sessionId)
    await reader.cancel()
  })

  it('showsARequestARateLimitRefusedWithTheLimitAndWhenToRetry', async () => {
    const server = createServer({
      name: 'console-limits',
      version: '1.0.0',
      logger: silentLogger,
      rateLimits: { methods: { 'tools/call': { calls: 1, perMs: 60_000 } } },
    })
    server.tool('status', { description: 'status' }, async () => 'green')
    running = await listen(server, { port: 0, devConsole: true })
    const reader = new EventReader(await fetch(`${new URL(running.url).origin}/_tessera/events`))
    const client = new McpHttpClient(running.url)
    expect(textOf(resultOf(await client.callTool('status')))).toBe('green')
    expect((await client.callTool('status')).status).toBe(429)
    const events = await eventsUntil(reader, (seen) => ofType(seen, 'request-end').length === 2)
    const [limited, ...more] = ofType(events, 'rate-limited')
    expect(more).toEqual([])
    expect(limited).toMatchObject({
      scope: 'method',
      limit: 'tools/call for every caller is limited to 1 per 60000 ms',
    })
    expect(limited!.retryAfterMs).toBeGreaterThan(55_000)
    const refused = ofType(events, 'request-end').find((e) => e.request.id === limited!.request)
    expect(refused?.request).toMatchObject({ status: 429, target: 'status', error: { code: -32600 } })
    await reader.cancel()
  })

  it('sendsAPageThatOpensLaterWhatHappenedBefore', async () => {
    running = await listen(app(), { port: 0, devConsole: true })
    await new McpHttpClient(running.url).callTool('rollback', { service: 'db' })
    const reader = new EventReader(await fetch(`${new URL(running.url).origin}/_tessera/events`))
    const events = await eventsUntil(reader, (seen) => seen.some((e) => e.event === 'request-end'))
    expect(ofType(events, 'request-end')[0]!.request).toMatchObject({ target: 'rollback' })
    await reader.cancel()
  })

  it('servesAViewsSandboxPageUnderTheViewsOwnPolicyAndRefusesMetadataThatIsNoObject', async () => {
    running = await listen(app(), { port: 0, devConsole: true })
    const frame = `${new URL(running.url).origin}/_tessera/view-frame`
    const ui = { csp: { connectDomains: ['https://api.example.com'] }, permissions: { camera: {} } }
    const page = await fetch(`${frame}?ui=${encodeURIComponent(JSON.stringify(ui))}`)
    expect(page.status).toBe(200)
    const policy = page.headers.get('content-security-policy') ?? ''
    expect(policy).toContain("default-src 'none'")
    expect(policy).toContain('connect-src https://api.example.com;')
    expect(policy).toContain('sandbox allow-scripts allow-forms')
    const html = await page.text()
    expect(html).toContain('ui/notifications/sandbox-proxy-ready')
    expect(html).toContain(`view.setAttribute('allow', "camera")`)
    expect((await fetch(frame)).headers.get('content-security-policy')).toContain("connect-src 'none'")

    for (const [query, said] of [
      ['?ui=%5B%5D', 'is not a JSON object'],
      ['?ui=%7B', 'is not JSON'],
      [`?ui=${'x'.repeat(9000)}`, 'is longer than 8192 characters'],
    ] as const) {
      const refused = await fetch(`${frame}${query}`)
      expect(refused.status).toBe(400)
      expect(((await refused.json()) as { error: string }).error).toContain(said)
    }
  })

  it('answers403ToAForeignHostOrOriginAnd405ToAnythingButGet', async () => {
    running = await listen(app(), { port: 0, devConsole: true })
    const { port } = running
    const own = `127.0.0.1:${port}`
    const page = await getRaw(port, '/_tessera/', { host: own })
    expect(page.status).toBe(200)
    expect(page.body).toContain('<meta name="tessera-endpoint" content="/mcp"')
    for (const headers of <Record<string, string>[]>[
      { host: `evil.example:${port}` },
      { host: `10.1.2.3:${port}` },
      { host: own, origin: 'http://evil.example' },
      { host: own, origin: `http://127.0.0.1:${port + 1}` },
    ]) {
      const refused = await getRaw(port, '/_tessera/events', headers)
      expect(refused.status).toBe(403)
      expect(JSON.parse(refused.body).error).toMatch(/^Forbidden: /)
    }
    const post = await fetch(`http://${own}/_tessera/events`, { method: 'POST' })
    expect(post.status).toBe(405)
  })

  // The same Host parser as the MCP endpoint's: a Host sent twice, or with a port past 65535,
  // names no host at all, so it is refused before the loopback check could be fooled by it.
  it('answers400ToASecondHostOrAPortPast65535LikeTheEndpoint', async () => {
    running = await listen(app(), { port: 0, devConsole: true })
    const { port } = running
    const events = `${new URL(running.url).origin}/_tessera/events`
    for (const hosts of [
      [`127.0.0.1:${port}`, 'evil.example'],
      ['evil.example', `127.0.0.1:${port}`],
      [`localhost:${port}`, `localhost:${port}`],
    ]) {
      const refused = await rawRequest(
        events,
        hosts.map((host) => `host: ${host}`),
      )
      expect(refused.status).toBe(400)
      expect(JSON.parse(refused.body).error).toBe('Bad request: Host was sent more than once.')
    }
    for (const host of ['127.0.0.1:65536', 'localhost:99999', '[::1]:65536']) {
      const refused = await rawRequest(events, [`host: ${host}`])
      expect(refused.status).toBe(400)
      expect(JSON.parse(refused.body).error).toBe('Bad request: Host is not a host and port.')
    }
    // The highest port is a port: that Host reaches the method check.
    expect((await rawRequest(events, ['host: 127.0.0.1:65535'])).status).toBe(405)
  })

  it('isRefusedInProductionAndOffLoopback', async () => {
    const saved = process.env.NODE_ENV
    process.env.NODE_ENV = 'production'
    try {
      await expect(listen(app(), { port: 0, devConsole: true })).rejects.toThrow(
        /never served with NODE_ENV=production/,
      )
    } finally {
      process.env.NODE_ENV = saved
    }
    await expect(listen(app(), { host: '0.0.0.0', port: 0, devConsole: true })).rejects.toThrow(
      /loopback host only/,
    )
  })

  it('isAbsentFromAServerThatDidNotAskForItWhichPublishesNothing', async () => {
    running = await listen(app(), { port: 0 })
    expect(channel(DEV_CHANNEL).hasSubscribers).toBe(false)
    const { port } = running
    expect((await getRaw(port, '/_tessera/events', { host: `127.0.0.1:${port}` })).status).toBe(404)
    expect((await getRaw(port, '/_tessera/', { host: `127.0.0.1:${port}` })).status).toBe(404)
  })
})
