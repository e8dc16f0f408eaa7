/**
 * @module handshake-resume.test
 * Resumable SSE of the handshake era over real HTTP: a tool closes its response connection
 * (`ctx.closeStream()`, SSE polling) and keeps working; the client reconnects with GET +
 * `Last-Event-ID` and receives every remaining event and the final result, live or after the
 * fact. A client-side disconnect is not a cancellation. A Last-Event-ID of another session is
 * never replayed.
 */
import { createServer, type McpServer } from '@tessera/core'
import { listen, type RunningServer } from '@tessera/core/http'
import { parseEventId } from '@tessera/core/ports'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  EventReader,
  gate,
  HandshakeClient,
  type Json,
  readAnswer,
  resultOf,
  type SseEvent,
  sleep,
  textOf,
} from '../helpers/handshake-client.ts'
import { capturingLogger } from '../helpers/mcp-http.ts'

let release = gate()
const state = { aborted: false }

function build(): McpServer {
  const app = createServer({ name: 'it-resume', version: '1.0.0', logger: capturingLogger() })
  app.tool(
    'detach',
    { description: 'Closes the stream, waits for the test, then finishes' },
    async (_args, ctx) => {
      ctx.progress(1, 4, 'before the break')
      ctx.closeStream()
      await release.promise
      for (const step of [2, 3, 4]) {
        ctx.progress(step, 4, `step ${step}`)
        await sleep(10)
      }
      return 'finished'
    },
  )
  app.tool(
    'detach-quick',
    { description: 'Closes the stream and finishes on its own' },
    async (_args, ctx) => {
      ctx.progress(1, 3)
      ctx.closeStream()
      await sleep(20)
      ctx.progress(2, 3)
      ctx.progress(3, 3)
      return 'quick'
    },
  )
  app.tool('slow', { description: 'Reports progress for a while' }, async (_args, ctx) => {
    state.aborted = false
    for (let step = 1; step <= 5; step++) {
      ctx.progress(step, 5)
      await sleep(40)
    }
    state.aborted = ctx.signal.aborted
    return 'slow done'
  })
  return app
}

let running: RunningServer

beforeAll(async () => {
  running = await listen(build(), { port: 0 })
})

afterAll(async () => {
  await running?.close()
})

const progressOf = (event: SseEvent) => (event.message?.params as Json | undefined)?.progress

/** Reads a reader to its end. */
async function drain(reader: EventReader): Promise<SseEvent[]> {
  const events: SseEvent[] = []
  for (;;) {
    const event = await reader.next(3_000)
    if (event === undefined) return events
    events.push(event)
  }
}

describe('resuming a stream the server closed', () => {
  it('deliversTheRemainingEventsAndTheResultLiveAfterAGetWithLastEventId', async () => {
    release = gate()
    const client = await HandshakeClient.connect(running.url)
    const response = await client.open(
      'tools/call',
      { name: 'detach', arguments: {}, _meta: { progressToken: 'p' } },
      { id: 'd1' },
    )
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/)
    const first = await drain(new EventReader(response))
    // The priming event (id, retry, no data), progress 1, then the connection ends.
    expect(first).toHaveLength(2)
    expect(first[0]).toMatchObject({ data: '' })
    expect(first[0]!.retry).toBeGreaterThan(0)
    expect(progressOf(first[1]!)).toBe(1)
    const lastEventId = first[1]!.id!
    const stream = parseEventId(lastEventId)!.streamId
    expect(stream.startsWith(`${client.sessionId}.`)).toBe(true)

    const resumed = await client.get(lastEventId)
    expect(resumed.status).toBe(200)
    expect(resumed.headers.get('content-type')).toMatch(/^text\/event-stream/)
    const reader = new EventReader(resumed)
    expect(await reader.quietFor(100)).toBe(true)
    release.open()
    const rest = await drain(reader)
    expect(rest.map(progressOf)).toEqual([2, 3, 4, undefined])
    expect(rest.at(-1)?.message).toMatchObject({
      jsonrpc: '2.0',
      id: 'd1',
      result: { content: [{ type: 'text', text: 'finished' }] },
    })
    // Every event id is unique and belongs to the stream that broke.
    const ids = [...first, ...rest].map((e) => e.id)
    expect(new Set(ids).size).toBe(ids.length)
    for (const id of ids) expect(parseEventId(id!)?.streamId).toBe(stream)
  })

  it('replaysEverythingAfterTheGivenIdOnceTheCallHasFinishedThenEnds', async () => {
    const client = await HandshakeClient.connect(running.url)
    const live = await client.callTool('detach-quick', {}, { meta: { progressToken: 'q' }, id: 'q1' })
    expect(live.body).toBeUndefined()
    expect(live.events.map(progressOf)).toEqual([undefined, 1])
    await sleep(100)
    // From the priming event: progress 1 again, with the same id, then everything after.
    const all = await client.resume(live.events[0]!.id!, { expectId: 'q1' })
    expect(all.events[0]).toEqual(live.events[1])
    expect(all.events.map(progressOf)).toEqual([1, 2, 3, undefined])
    expect(textOf(resultOf(all))).toBe('quick')
    // From the last event seen: only what was missed.
    const missed = await client.resume(live.lastEventId!, { expectId: 'q1' })
    expect(missed.events.map((e) => e.id)).toEqual(all.events.slice(1).map((e) => e.id))
    // Resuming again is repeatable.
    expect((await client.resume(live.lastEventId!, { expectId: 'q1' })).events).toEqual(missed.events)
  })

  it('treatsAClientSideDisconnectAsNoCancellationTheCallGoesOnAndIsResumable', async () => {
    const client = await HandshakeClient.connect(running.url)
    const controller = new AbortController()
    const response = await client.open(
      'tools/call',
      { name: 'slow', arguments: {}, _meta: { progressToken: 's' } },
      { id: 's1', signal: controller.signal },
    )
    const reader = new EventReader(response)
    const priming = await reader.next()
    const one = await reader.next()
    expect(progressOf(one!)).toBe(1)
    controller.abort()
    await sleep(50)
    const rest = await client.resume(one!.id!, { expectId: 's1' })
    expect(rest.events.map(progressOf)).toEqual([2, 3, 4, 5, undefined])
    expect(textOf(resultOf(rest))).toBe('slow done')
    expect(state.aborted).toBe(false)
    expect(parseEventId(rest.events[0]!.id!)?.streamId).toBe(parseEventId(priming!.id!)?.streamId)
  })
})

describe('what is never replayed', () => {
  it('doesNotReplayALastEventIdOfAnotherSession', async () => {
    const alice = await HandshakeClient.connect(running.url)
    const bob = await HandshakeClient.connect(running.url)
    const live = await alice.callTool('detach-quick', {}, { meta: { progressToken: 'a' }, id: 'a1' })
    await sleep(100)
    const stolen = live.events[0]!.id!
    const response = await bob.get(stolen)
    expect(response.status).toBe(200)
    const reader = new EventReader(response)
    const first = await reader.next()
    // Bob gets a stream of his own (or nothing), never Alice's events.
    if (first !== undefined) {
      expect(first.message).toBeUndefined()
      expect(first.id?.startsWith(`${bob.sessionId}.`)).toBe(true)
    }
    expect(await reader.quietFor(200)).toBe(true)
    expect(reader.seen).not.toContain(alice.sessionId!)
    expect(reader.seen).not.toContain('"progress"')
    await reader.cancel()
    // Alice can still resume her own stream.
    expect(textOf(resultOf(await alice.resume(stolen, { expectId: 'a1' })))).toBe('quick')
  })

  it('doesNotReplayAnotherSessionWhoseIdStartsLikeThisOne', async () => {
    const alice = await HandshakeClient.connect(running.url)
    const live = await alice.callTool('detach-quick', {}, { meta: { progressToken: 'a' }, id: 'a2' })
    await sleep(50)
    const bob = await HandshakeClient.connect(running.url)
    // A forged id naming Alice's stream under Bob's session prefix is not Alice's stream.
    const forged = `${bob.sessionId}.${live.events[0]!.id!}`
    const reply = await readAnswer(await bob.get(forged), { timeoutMs: 1_000 }).catch(() => undefined)
    expect(JSON.stringify(reply?.messages ?? [])).not.toContain('"progress"')
  })

  it('answersALastEventIdOfItsOwnSessionThatNamesNoStreamWithAnEmptyStream', async () => {
    const client = await HandshakeClient.connect(running.url)
    const reply = await readAnswer(await client.get(`${client.sessionId}.nothing-here/1`), {
      timeoutMs: 1_000,
    })
    expect(reply.status).toBe(200)
    expect(reply.messages).toEqual([])
  })
})
