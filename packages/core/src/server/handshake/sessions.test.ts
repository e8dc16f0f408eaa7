/**
 * @module sessions.test
 * The door of the 2025-11-25 era, below any transport: `find` refuses a missing id, an unknown or
 * ended id, an id opened by another principal (exactly like an unknown one), an overlong id
 * (without asking the store) and a version header outside the era; `open` refuses when the shared
 * store is full, but a local (stdio) session never takes a place in it. Two servers sharing a
 * session store and a notification bus route a client's answer and a cancel that reach the
 * instance not holding the request to the one that does, never to another session.
 */
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { silentLogger } from '../../../../../test/helpers/silent-logger.ts'
import { TesseraError } from '../../errors.ts'
import type { JsonObject, JsonRpcNotification, JsonRpcRequest } from '../../protocol/jsonrpc/message.ts'
import type { AuthInfo } from '../../security/request-state/binding.ts'
import { createServer } from '../create-server.ts'
import { doorOf, type Exchange, type HandshakeDoor } from '../door.ts'
import { elicitForm } from '../mrtr/input-requests.ts'
import { memoryNotificationBus, type NotificationBus } from '../notification-bus.ts'
import { memorySessionStore, type SessionStore } from './session-store.ts'

const ALICE: AuthInfo = { issuer: 'https://idp.example', clientId: 'app', subject: 'alice' }
const MALLORY: AuthInfo = { issuer: 'https://idp.example', clientId: 'app', subject: 'mallory' }

const initialize = (capabilities: JsonObject = { elicitation: {} }): JsonRpcRequest => ({
  jsonrpc: '2.0',
  id: 0,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities, clientInfo: { name: 'sessions', version: '1' } },
})

const toolCall = (id: number | string, name: string): JsonRpcRequest => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name, arguments: {} },
})

/** An exchange that keeps what the server sends the client for this request. */
function exchange(): Exchange & { sent: JsonObject[] } {
  const sent: JsonObject[] = []
  return {
    sent,
    headers: undefined,
    auth: undefined,
    signal: new AbortController().signal,
    send: (message) => sent.push(message),
  }
}

/** A server whose `wait` tool records its signal; `stores` may be shared with another instance. */
/** The client's `notifications/cancelled` for request `id`. */
function cancelled(id: string | number): JsonRpcNotification {
  return { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id } }
}

function build(stores: { sessions?: SessionStore; bus?: NotificationBus } = {}) {
  const signals: AbortSignal[] = []
  const app = createServer({ name: 'sessions', version: '1.0.0', logger: silentLogger, stores })
  app.tool('ask', { description: 'Asks a name' }, async (_args, ctx) => {
    const answer = await ctx.ask(
      'name',
      elicitForm({ message: 'Name?', schema: z.object({ name: z.string() }) }),
    )
    return answer.action === 'accept' ? `hello ${answer.content.name}` : `no: ${answer.action}`
  })
  app.tool('wait', { description: 'Runs until cancelled' }, (_args, ctx) => {
    signals.push(ctx.signal)
    return new Promise<string>((resolve) => ctx.signal.addEventListener('abort', () => resolve('aborted')))
  })
  return { sessions: doorOf(app, 'sessions.test').handshake!, signals }
}

async function refusal(promise: Promise<unknown>): Promise<{ code: string; message: string }> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  )
  if (!(error instanceof TesseraError)) throw new Error(`expected a TesseraError, got ${String(error)}`)
  return { code: error.code, message: error.message }
}

const NOT_FOUND = { code: 'TESSERA_SESSION_NOT_FOUND', message: 'Session not found.' }

async function until(check: () => boolean, timeoutMs = 2_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met in time')
    await new Promise((resolve) => setTimeout(resolve, 2))
  }
}

describe('find', () => {
  it('refusesAMissingSessionIdAsRequired', async () => {
    const { sessions } = build()
    expect(await refusal(sessions.find(undefined, undefined, undefined))).toEqual({
      code: 'TESSERA_SESSION_REQUIRED',
      message: 'Bad request: Mcp-Session-Id header is required.',
    })
  })

  it('refusesAnUnknownIdAsNotFound', async () => {
    const { sessions } = build()
    expect(await refusal(sessions.find('no-such-session', undefined, undefined))).toEqual(NOT_FOUND)
  })

  it('findsASessionForThePrincipalThatOpenedItEvenWithARefreshedToken', async () => {
    const store = memorySessionStore()
    const { sessions } = build({ sessions: store })
    const { session } = await sessions.open(initialize(), { ...ALICE, token: 'first' })
    const found = await sessions.find(session.id, { ...ALICE, token: 'refreshed' }, '2025-11-25')
    expect(found.id).toBe(session.id)
    expect((await store.get(found.id))?.clientCapabilities).toEqual({ elicitation: {} })
  })

  it('answersAnotherPrincipalExactlyLikeAnUnknownId', async () => {
    const { sessions } = build()
    const { session } = await sessions.open(initialize(), ALICE)
    expect(await refusal(sessions.find(session.id, MALLORY, undefined))).toEqual(NOT_FOUND)
    expect(await refusal(sessions.find(session.id, undefined, undefined))).toEqual(NOT_FOUND)
    const otherIssuer = { ...ALICE, issuer: 'https://other-idp.example' }
    expect(await refusal(sessions.find(session.id, otherIssuer, undefined))).toEqual(NOT_FOUND)
    expect((await sessions.find(session.id, ALICE, undefined)).id).toBe(session.id)
  })

  it('keepsAnAnonymousSessionAwayFromAnAuthenticatedCaller', async () => {
    const { sessions } = build()
    const { session } = await sessions.open(initialize(), undefined)
    expect(await refusal(sessions.find(session.id, ALICE, undefined))).toEqual(NOT_FOUND)
  })

  it('refusesAnOverlongIdWithoutAskingTheStore', async () => {
    const store = memorySessionStore()
    const asked: string[] = []
    const counting: SessionStore = {
      ...store,
      get: (id) => {
        asked.push(id)
        return store.get(id)
      },
    }
    const { sessions } = build({ sessions: counting })
    expect(await refusal(sessions.find('x'.repeat(257), undefined, undefined))).toEqual(NOT_FOUND)
    expect(asked).toEqual([])
    expect(await refusal(sessions.find('x'.repeat(256), undefined, undefined))).toEqual(NOT_FOUND)
    expect(asked).toEqual(['x'.repeat(256)])
  })

  it('refusesAVersionHeaderOutsideTheHandshakeEra', async () => {
    const { sessions } = build()
    const { session } = await sessions.open(initialize(), undefined)
    for (const version of ['2026-07-28', '2025-13-01', '']) {
      expect(await refusal(sessions.find(session.id, undefined, version))).toEqual({
        code: 'TESSERA_INVALID_REQUEST',
        message: 'Bad request: unsupported MCP-Protocol-Version.',
      })
    }
    expect((await sessions.find(session.id, undefined, '2025-03-26')).id).toBe(session.id)
  })

  it('findsNoSessionOnceItEnded', async () => {
    const { sessions } = build()
    const { session } = await sessions.open(initialize(), undefined)
    await session.end()
    expect(await refusal(sessions.find(session.id, undefined, undefined))).toEqual(NOT_FOUND)
  })
})

describe('open', () => {
  it('refusesWithTooManySessionsWhenTheStoreIsFull', async () => {
    const { sessions } = build({ sessions: memorySessionStore({ maxSessions: 1 }) })
    await sessions.open(initialize(), undefined)
    expect(await refusal(sessions.open(initialize(), undefined))).toEqual({
      code: 'TESSERA_TOO_MANY_SESSIONS',
      message: 'Too many sessions; try again later.',
    })
  })

  it('opensALocalSessionOutsideTheSharedStoreEvenWhenItIsFull', async () => {
    const store = memorySessionStore({ maxSessions: 1 })
    const { sessions } = build({ sessions: store })
    await sessions.open(initialize(), undefined)
    const { session, result } = await sessions.open(initialize(), undefined, { local: true })
    expect(result.protocolVersion).toBe('2025-11-25')
    expect(await store.get(session.id)).toBeUndefined()
  })

  it('refusesAnInitializeWithoutCapabilitiesAndStoresNothing', async () => {
    const store = memorySessionStore({ maxSessions: 1 })
    const { sessions } = build({ sessions: store })
    const bad: JsonRpcRequest = { ...initialize(), params: { protocolVersion: '2025-11-25' } }
    expect((await refusal(sessions.open(bad, undefined))).code).toBe('TESSERA_INVALID_PARAMS')
    await sessions.open(initialize(), undefined)
  })
})

describe('two instances sharing the session store and the bus', () => {
  function pair(): { a: ReturnType<typeof build>; b: HandshakeDoor } {
    const stores = { sessions: memorySessionStore(), bus: memoryNotificationBus() }
    return { a: build(stores), b: build(stores).sessions }
  }

  it('routesTheAnswerReceivedOnBToTheQuestionAskedOnA', async () => {
    const { a, b } = pair()
    const { session } = await a.sessions.open(initialize(), ALICE)
    const onA = exchange()
    const reply = session.request(toolCall(1, 'ask'), onA)
    await until(() => onA.sent.length > 0)
    const ask = onA.sent[0]!
    expect(ask.method).toBe('elicitation/create')
    const onB = await b.find(session.id, ALICE, '2025-11-25')
    onB.response(
      {
        jsonrpc: '2.0',
        id: ask.id as string,
        result: { action: 'accept', content: { name: 'Ada' } },
      },
      ALICE,
    )
    expect((await reply)?.body).toMatchObject({ id: 1, result: { content: [{ text: 'hello Ada' }] } })
  })

  it('neverGivesAnAnswerToTheSameQuestionIdInAnotherSession', async () => {
    const { a, b } = pair()
    const { session } = await a.sessions.open(initialize(), undefined)
    const { session: other } = await a.sessions.open(initialize(), undefined)
    const onA = exchange()
    let settled = false
    const reply = session.request(toolCall(1, 'ask'), onA).finally(() => {
      settled = true
    })
    await until(() => onA.sent.length > 0)
    const id = onA.sent[0]!.id as string
    const wrong = await b.find(other.id, undefined, undefined)
    wrong.response({ jsonrpc: '2.0', id, result: { action: 'accept', content: { name: 'Eve' } } }, undefined)
    await new Promise((resolve) => setImmediate(resolve))
    expect(settled).toBe(false)
    const right = await b.find(session.id, undefined, undefined)
    right.response({ jsonrpc: '2.0', id, result: { action: 'accept', content: { name: 'Ada' } } }, undefined)
    expect((await reply)?.body).toMatchObject({ result: { content: [{ text: 'hello Ada' }] } })
  })

  it('routesACancelReceivedOnBToTheRequestRunningOnA', async () => {
    const { a, b } = pair()
    const { session } = await a.sessions.open(initialize(), undefined)
    const reply = session.request(toolCall('long', 'wait'), exchange())
    await until(() => a.signals.length === 1)
    const onB = await b.find(session.id, undefined, undefined)
    await onB.notification(cancelled('long'), undefined)
    expect(a.signals[0]!.aborted).toBe(true)
    // A cancelled request answers nothing.
    expect(await reply).toBeUndefined()
  })

  it('cancelsNothingForTheSameRequestIdOfAnotherSessionOrAnotherIdType', async () => {
    const { a, b } = pair()
    const { session } = await a.sessions.open(initialize(), undefined)
    const { session: other } = await a.sessions.open(initialize(), undefined)
    const reply = session.request(toolCall(7, 'wait'), exchange())
    await until(() => a.signals.length === 1)
    await (await b.find(other.id, undefined, undefined)).notification(cancelled(7), undefined)
    await (await b.find(session.id, undefined, undefined)).notification(cancelled('7'), undefined)
    expect(a.signals[0]!.aborted).toBe(false)
    await (await b.find(session.id, undefined, undefined)).notification(cancelled(7), undefined)
    expect(await reply).toBeUndefined()
  })

  it('endsTheFollowersOnAWhenBEndsTheSession', async () => {
    const { a, b } = pair()
    const { session } = await a.sessions.open(initialize(), undefined)
    let ended = false
    session.follow({ send: () => {}, end: () => (ended = true) }, undefined)
    await (await b.find(session.id, undefined, undefined)).end()
    expect(ended).toBe(true)
    expect(await refusal(a.sessions.find(session.id, undefined, undefined))).toEqual(NOT_FOUND)
  })
})
