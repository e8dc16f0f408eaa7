/**
 * @module request-state.test
 * Multi round-trip security through the real HTTP server. A requestState is refused (one fixed
 * -32602, HTTP 400, the reason only in logs) when it was tampered with, expired, sealed under a key
 * that left the ring, minted by another server identity, re-spelled, or echoed on another call:
 * another tool, other arguments, another principal or none. Honest retries still work: another
 * id, other `_meta`, reordered keys, a refreshed token, the previous key, a replica. Then what a
 * handler sees: refusals end the call, await-style asks replay earlier answers, undeclared
 * capabilities are -32021, and a single-use tool acts at most once per accepted answer.
 */
import {
  type AuthInfo,
  createMessage,
  createServer,
  elicitForm,
  type McpServer,
  originatingRequestBinder,
  type StateKey,
} from '@tessera/core'
import { listen, type RunningServer } from '@tessera/core/http'
import { memoryReplayStore } from '@tessera/core/ports'
import { afterAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import {
  bearer,
  bearerJsonAuth,
  type CallOptions,
  capturingLogger,
  errorOf,
  type Json,
  type LogEntry,
  McpHttpClient,
  type Reply,
  resultOf,
  sleep,
  textOf,
} from '../helpers/mcp-http.ts'

const KEY_A: StateKey = { id: 'key-a', secret: `${'a'.repeat(32)}-secret-for-tests-only` }
const KEY_B: StateKey = { id: 'key-b', secret: `${'b'.repeat(32)}-secret-for-tests-only` }
const TTL_SECONDS = 60
const REFUSAL_MESSAGE = 'Invalid params: the requestState is invalid or expired.'

const alice: AuthInfo = {
  issuer: 'https://idp.example',
  clientId: 'ops-app',
  subject: 'alice',
  token: 'tok-alice-1',
}
const bob: AuthInfo = {
  issuer: 'https://idp.example',
  clientId: 'ops-app',
  subject: 'bob',
  token: 'tok-bob-1',
}

const askOk = elicitForm({
  message: 'Proceed?',
  requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] },
})
const askVersion = elicitForm({
  message: 'Roll back to which version?',
  requestedSchema: { type: 'object', properties: { version: { type: 'string' } }, required: ['version'] },
})
const askVersionAgain = elicitForm({
  message: 'Which version, then?',
  requestedSchema: { type: 'object', properties: { version: { type: 'string' } }, required: ['version'] },
})
const askName = elicitForm({
  message: 'What is your name?',
  requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
})
const nameSchema = { type: 'object' as const, properties: { name: { type: 'string' } }, required: ['name'] }
const okSchema = { type: 'object' as const, properties: { ok: { type: 'boolean' } }, required: ['ok'] }

/** Accepts any arguments (the binding, not the schema, is under test). */
const openInput = { type: 'object', properties: { target: { type: 'string' } } }

interface Fixture {
  app: McpServer
  running: RunningServer
  client: McpHttpClient
  logger: ReturnType<typeof capturingLogger>
  counters: Record<string, number>
}

interface FixtureOptions {
  keys?: StateKey[]
  identity?: string
  clock?: () => number
  binder?: ReturnType<typeof originatingRequestBinder>
  name?: string
}

const fixtures: Fixture[] = []
afterAll(async () => {
  await Promise.all(fixtures.map((f) => f.running.close()))
})

async function start(options: FixtureOptions = {}): Promise<Fixture> {
  const logger = capturingLogger()
  const counters: Record<string, number> = {
    confirm: 0,
    rollback: 0,
    above: 0,
    below: 0,
    deploy: 0,
    survey: 0,
  }
  const app = createServer({
    name: options.name ?? 'it-state',
    version: '1.0.0',
    logger,
    requestState: {
      keys: options.keys ?? [KEY_A],
      ttlSeconds: TTL_SECONDS,
      identity: options.identity,
      clock: options.clock,
      binder: options.binder,
    },
    stores: { replay: memoryReplayStore() },
  })
  registerTools(app, counters)
  const running = await listen(app, { port: 0, authenticate: bearerJsonAuth })
  const fixture = { app, running, client: new McpHttpClient(running.url), logger, counters }
  fixtures.push(fixture)
  return fixture
}

function registerTools(app: McpServer, counters: Record<string, number>): void {
  const confirmed =
    (name: string) =>
    async (args: Record<string, unknown>, ctx: Parameters<Parameters<McpServer['tool']>[2]>[1]) => {
      const answer = await ctx.ask('confirm', askOk)
      if (answer.action !== 'accept') return 'declined'
      counters.confirm!++
      return `${name} confirmed ${JSON.stringify(args)}`
    }
  app.tool('confirm', { description: 'Asks before acting', input: openInput }, confirmed('confirm'))
  app.tool('other', { description: 'Same shape, other tool', input: openInput }, confirmed('other'))
  app.tool(
    'padded',
    {
      description: 'Asks under a key of a chosen length, so its state has a chosen length',
      input: { type: 'object', properties: { pad: { type: 'integer' } } },
    },
    async (args, ctx) => {
      await ctx.ask(paddedKey(Number(args.pad ?? 0)), askOk)
      return 'padded ok'
    },
  )
  app.tool(
    'rollback',
    {
      description: 'Asks for a version when none is given',
      input: z.object({ service: z.string(), version: z.string().optional() }),
    },
    async ({ service, version }, ctx) => {
      let target = version
      if (target === undefined) {
        const answer = await ctx.ask('version', askVersion)
        // Deliberately naive: reads the content without reading the action, and asks again under
        // the same key when it finds none. The framework drops content sent with a decline or
        // cancel, and never asks a refused question again: the call ends instead.
        target = (answer as { content?: { version?: string } }).content?.version
        if (target === undefined) await ctx.ask('version', askVersionAgain)
      }
      counters.rollback!++
      return `Rolled back ${service} to ${target}.`
    },
  )
  app.tool('two-step', { description: 'Asks twice in the await style' }, async (_args, ctx) => {
    counters.above!++
    const first = await ctx.ask('name', elicitForm({ message: 'Name?', requestedSchema: nameSchema }))
    const second = await ctx.ask('sure', elicitForm({ message: 'Sure?', requestedSchema: okSchema }))
    counters.below!++
    const content = (a: typeof first) => (a.action === 'accept' ? JSON.stringify(a.content) : a.action)
    return `first ${content(first)}; second ${content(second)}`
  })
  app.tool('needs-sampling', { description: 'Asks the client LLM' }, async (_args, ctx) => {
    const answer = await ctx.ask(
      'sum',
      createMessage({ messages: [{ role: 'user', content: { type: 'text', text: '2+2?' } }], maxTokens: 5 }),
    )
    return `model ${answer.model}`
  })
  app.tool('greet', { description: 'Asks for a name' }, async (_args, ctx) => {
    const answer = await ctx.ask('user_name', askName)
    return answer.action === 'accept' ? `Hello, ${String(answer.content.name)}!` : 'No name.'
  })
  app.tool(
    'deploy',
    {
      description: 'Single-use: acts at most once per accepted answer',
      singleUse: true,
      input: z.object({ service: z.string() }),
    },
    async ({ service }, ctx) => {
      const answer = await ctx.ask('confirm', askOk)
      if (answer.action !== 'accept') return 'Not deployed.'
      counters.deploy!++
      await sleep(30)
      return `Deployed ${service}.`
    },
  )
  app.tool('survey', { description: 'Single-use, asks twice', singleUse: true }, async (_args, ctx) => {
    const name = await ctx.ask('name', askName)
    const ok = await ctx.ask('confirm', askOk)
    if (name.action !== 'accept' || ok.action !== 'accept') return 'Nothing recorded.'
    counters.survey!++
    return `Recorded ${String(name.content.name)}.`
  })
  app.resourceTemplate('ask://{topic}', { name: 'asking-resource' }, async (uri, _vars, ctx) => {
    const answer = await ctx.ask('confirm', askOk)
    return { contents: [{ uri, text: answer.action }] }
  })
}

const yes = { confirm: { action: 'accept', content: { ok: true } } }
const paddedKey = (pad: number) => `confirm${'x'.repeat(pad)}`
const paddedYes = (pad: number) => ({ [paddedKey(pad)]: yes.confirm })

interface Round {
  reply: Reply
  result: Json
  state: string
}

/** Runs a first round that must end with `input_required`, and returns its state. */
async function firstRound(
  client: McpHttpClient,
  tool: string,
  args: Json,
  options: CallOptions = {},
): Promise<Round> {
  const reply = await client.callTool(tool, args, options)
  const result = resultOf(reply)
  expect(result.resultType).toBe('input_required')
  expect(typeof result.requestState).toBe('string')
  return { reply, result, state: result.requestState as string }
}

function retry(
  client: McpHttpClient,
  tool: string,
  args: Json,
  state: string | undefined,
  answers: Json | null,
  options: CallOptions = {},
): Promise<Reply> {
  const extra: Json = { inputResponses: answers }
  if (state !== undefined) extra.requestState = state
  return client.callTool(tool, args, { ...options, extra })
}

function withAuth(auth: AuthInfo | undefined, options: CallOptions = {}): CallOptions {
  return auth === undefined ? options : { ...options, headers: { ...options.headers, ...bearer(auth) } }
}

/** Every refusal looks exactly alike on the wire. */
function expectRefused(reply: Reply): void {
  expect(reply.status).toBe(400)
  expect(reply.body?.error).toEqual({ code: -32602, message: REFUSAL_MESSAGE })
}

function refusalReasons(entries: LogEntry[]): unknown[] {
  return entries.filter((e) => e.obj.event === 'request_state_refused').map((e) => e.obj.reason)
}

/** Replaces one base64url character in the body of the token, away from both ends. */
function flipByte(token: string): string {
  const at = token.length - 20
  const c = token[at]!
  return `${token.slice(0, at)}${c === 'A' ? 'B' : 'A'}${token.slice(at + 1)}`
}

/** A second spelling of the same bytes: sets a spare low bit of the last base64url symbol. */
function respell(token: string): string | undefined {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'
  const body = token.slice(token.lastIndexOf('.') + 1)
  if (body.length % 4 === 0) return undefined
  const last = alphabet.indexOf(token.at(-1)!)
  return `${token.slice(0, -1)}${alphabet[last + 1]}`
}

describe('a requestState is refused', () => {
  it('refusesAFlippedByte', async () => {
    const f = await start()
    const { state } = await firstRound(f.client, 'confirm', { target: 'a' })
    const reply = await retry(f.client, 'confirm', { target: 'a' }, flipByte(state), yes)
    expectRefused(reply)
    expect(f.counters.confirm).toBe(0)
    expect(refusalReasons(f.logger.entries)).toEqual(['mac'])
  })

  it('refusesAnExpiredState', async () => {
    let now = Date.UTC(2026, 7, 1, 12)
    const f = await start({ clock: () => now })
    const { state } = await firstRound(f.client, 'confirm', { target: 'a' })
    now += TTL_SECONDS * 1000 - 1
    expect(resultOf(await retry(f.client, 'confirm', { target: 'a' }, state, yes)).resultType).toBe(
      'complete',
    )
    now += 2
    expectRefused(await retry(f.client, 'confirm', { target: 'a' }, state, yes))
    expect(refusalReasons(f.logger.entries)).toEqual(['expired'])
  })

  it('refusesAStateFromAKeyNoLongerInTheRing', async () => {
    const minting = await start({ keys: [KEY_A] })
    const rotated = await start({ keys: [KEY_B] })
    const { state } = await firstRound(minting.client, 'confirm', { target: 'a' })
    expectRefused(await retry(rotated.client, 'confirm', { target: 'a' }, state, yes))
    expect(refusalReasons(rotated.logger.entries)).toEqual(['unknown-key'])
  })

  it('refusesAStateReplayedOnAnotherTool', async () => {
    const f = await start()
    const { state } = await firstRound(f.client, 'confirm', { target: 'a' })
    expectRefused(await retry(f.client, 'other', { target: 'a' }, state, yes))
    expect(refusalReasons(f.logger.entries)).toEqual(['binding'])
  })

  it('refusesAStateReplayedOnOtherArguments', async () => {
    const f = await start()
    const { state } = await firstRound(f.client, 'confirm', { target: 'a' })
    expectRefused(await retry(f.client, 'confirm', { target: 'b' }, state, yes))
    expectRefused(await retry(f.client, 'confirm', { target: 'a', extra: true }, state, yes))
    expectRefused(await retry(f.client, 'confirm', {}, state, yes))
  })

  it('refusesAStateReplayedWithAChangedNestedArgument', async () => {
    const f = await start()
    const args = { target: 'a', options: { depth: 1, tags: ['x', 'y'] } }
    const { state } = await firstRound(f.client, 'confirm', args)
    expectRefused(
      await retry(f.client, 'confirm', { target: 'a', options: { depth: 2, tags: ['x', 'y'] } }, state, yes),
    )
    expectRefused(
      await retry(f.client, 'confirm', { target: 'a', options: { depth: 1, tags: ['y', 'x'] } }, state, yes),
    )
    expect(f.counters.confirm).toBe(0)
  })

  it('refusesAStateReplayedUnderAnotherPrincipal', async () => {
    const f = await start()
    const { state } = await firstRound(f.client, 'confirm', { target: 'a' }, withAuth(alice))
    expectRefused(await retry(f.client, 'confirm', { target: 'a' }, state, yes, withAuth(bob)))
    // Same subject from another client or issuer is another principal too.
    expectRefused(
      await retry(
        f.client,
        'confirm',
        { target: 'a' },
        state,
        yes,
        withAuth({ ...alice, clientId: 'other-app' }),
      ),
    )
    expectRefused(
      await retry(
        f.client,
        'confirm',
        { target: 'a' },
        state,
        yes,
        withAuth({ ...alice, issuer: 'https://other.example' }),
      ),
    )
  })

  it('refusesAnAuthenticatedStateRetriedAnonymously', async () => {
    const f = await start()
    const { state } = await firstRound(f.client, 'confirm', { target: 'a' }, withAuth(alice))
    expectRefused(await retry(f.client, 'confirm', { target: 'a' }, state, yes))
  })

  it('refusesAnAnonymousStateRetriedAuthenticated', async () => {
    const f = await start()
    const { state } = await firstRound(f.client, 'confirm', { target: 'a' })
    expectRefused(await retry(f.client, 'confirm', { target: 'a' }, state, yes, withAuth(alice)))
  })

  it('refusesAnObjectWithNumericKeysInPlaceOfAnArray', async () => {
    const f = await start()
    const { state } = await firstRound(f.client, 'confirm', {
      target: 'a',
      list: { '1': 'one', '0': 'zero' },
    })
    expectRefused(await retry(f.client, 'confirm', { target: 'a', list: ['zero', 'one'] }, state, yes))
    const { state: listState } = await firstRound(f.client, 'confirm', { target: 'a', list: ['zero', 'one'] })
    expectRefused(
      await retry(f.client, 'confirm', { target: 'a', list: { '1': 'one', '0': 'zero' } }, listState, yes),
    )
    const { state: emptyObject } = await firstRound(f.client, 'confirm', { target: 'a', list: {} })
    expectRefused(await retry(f.client, 'confirm', { target: 'a', list: [] }, emptyObject, yes))
  })

  it('refusesAStateMintedByAnotherServerIdentitySharingTheKeys', async () => {
    const billing = await start({ identity: 'https://billing.example/mcp' })
    const ops = await start({ identity: 'https://ops.example/mcp' })
    const { state } = await firstRound(billing.client, 'confirm', { target: 'a' })
    expectRefused(await retry(ops.client, 'confirm', { target: 'a' }, state, yes))
    expect(refusalReasons(ops.logger.entries)).toEqual(['binding'])
  })

  it('refusesASecondBase64urlSpellingOfTheToken', async () => {
    const f = await start()
    let spelled: { state: string; other: string; pad: number } | undefined
    for (let pad = 0; pad < 3 && spelled === undefined; pad++) {
      const { state } = await firstRound(f.client, 'padded', { pad })
      const other = respell(state)
      if (other !== undefined) spelled = { state, other, pad }
    }
    expect(spelled).toBeDefined()
    const { state, other, pad } = spelled!
    expect(other).not.toBe(state)
    expectRefused(await retry(f.client, 'padded', { pad }, other, paddedYes(pad)))
    expect(refusalReasons(f.logger.entries)).toEqual(['malformed'])
    expect(textOf(resultOf(await retry(f.client, 'padded', { pad }, state, paddedYes(pad))))).toBe(
      'padded ok',
    )
  })

  it('refusesANonStringState', async () => {
    const f = await start()
    for (const state of [42, { token: 'x' }, null]) {
      const reply = await f.client.callTool(
        'confirm',
        { target: 'a' },
        { extra: { requestState: state, inputResponses: yes } },
      )
      expectRefused(reply)
    }
  })

  it('answersEveryRefusalAlikeAndLogsTheReasonOnly', async () => {
    const f = await start()
    const { state } = await firstRound(f.client, 'confirm', { target: 'a' }, withAuth(alice))
    const replies = [
      await retry(f.client, 'confirm', { target: 'a' }, flipByte(state), yes, withAuth(alice)),
      await retry(f.client, 'other', { target: 'a' }, state, yes, withAuth(alice)),
      await retry(f.client, 'confirm', { target: 'a' }, state, yes, withAuth(bob)),
      await retry(f.client, 'confirm', { target: 'a' }, 'tss1.nokey.AAAA', yes, withAuth(alice)),
    ]
    const errors = replies.map((r) => JSON.stringify(r.body?.error))
    expect(new Set(errors).size).toBe(1)
    for (const reply of replies) {
      expect(reply.status).toBe(400)
      // The fixed message says "invalid or expired" whatever happened; the precise reason never shows.
      expect(reply.raw).not.toMatch(/\b(mac|binding|unknown-key|malformed|reason)\b/)
    }
    expect(refusalReasons(f.logger.entries)).toEqual(['mac', 'binding', 'binding', 'unknown-key'])
  })
})

describe('an honest retry is accepted', () => {
  it('acceptsTheSameCallRetriedWithAnotherRequestId', async () => {
    const f = await start()
    const { state } = await firstRound(f.client, 'confirm', { target: 'a' }, { id: 'first' })
    const reply = await retry(f.client, 'confirm', { target: 'a' }, state, yes, { id: 'second' })
    expect(reply.body?.id).toBe('second')
    expect(textOf(resultOf(reply))).toBe('confirm confirmed {"target":"a"}')
  })

  it('acceptsOtherMeta', async () => {
    const f = await start()
    const { state } = await firstRound(f.client, 'confirm', { target: 'a' })
    const reply = await retry(f.client, 'confirm', { target: 'a' }, state, yes, {
      meta: {
        'io.modelcontextprotocol/clientInfo': { name: 'another-client', version: '9.9.9' },
        'com.example/trace': 'abc',
        progressToken: 'p-9',
        traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01',
      },
    })
    expect(resultOf(reply).resultType).toBe('complete')
  })

  it('acceptsReorderedObjectKeysInArguments', async () => {
    const f = await start()
    const { state } = await firstRound(f.client, 'confirm', {
      target: 'a',
      options: { depth: 1, tags: ['x'] },
    })
    const reply = await retry(
      f.client,
      'confirm',
      { options: { tags: ['x'], depth: 1.0 }, target: 'a' },
      state,
      yes,
    )
    expect(resultOf(reply).resultType).toBe('complete')
  })

  it('acceptsARefreshedTokenOfTheSamePrincipal', async () => {
    const f = await start()
    const { state } = await firstRound(f.client, 'confirm', { target: 'a' }, withAuth(alice))
    const refreshed = { ...alice, token: 'tok-alice-2-refreshed' }
    const reply = await retry(f.client, 'confirm', { target: 'a' }, state, yes, withAuth(refreshed))
    expect(resultOf(reply).resultType).toBe('complete')
  })

  it('acceptsAStateUnderThePreviousKeyWhileItIsStillInTheRing', async () => {
    const before = await start({ keys: [KEY_A] })
    const during = await start({ keys: [KEY_B, KEY_A] })
    const { state } = await firstRound(before.client, 'confirm', { target: 'a' })
    expect(resultOf(await retry(during.client, 'confirm', { target: 'a' }, state, yes)).resultType).toBe(
      'complete',
    )
    expect(during.app.stateMetrics().openedByKey).toEqual({ 'key-a': 1 })
    // New states from the rotated server are sealed under the new key.
    const { state: fresh } = await firstRound(during.client, 'confirm', { target: 'b' })
    expect(fresh.startsWith('tss1.key-b.')).toBe(true)
  })

  it('acceptsARetryOnAReplicaWithTheSameIdentityAndKeys', async () => {
    const one = await start({ identity: 'https://ops.example/mcp' })
    const two = await start({ identity: 'https://ops.example/mcp' })
    const { state } = await firstRound(one.client, 'confirm', { target: 'a' }, withAuth(alice))
    const reply = await retry(two.client, 'confirm', { target: 'a' }, state, yes, withAuth(alice))
    expect(textOf(resultOf(reply))).toBe('confirm confirmed {"target":"a"}')
  })
})

describe('principals without a stable identity', () => {
  const noSubject: AuthInfo = {
    issuer: 'https://idp.example',
    clientId: 'ops-app',
    token: 't',
    claims: { email: 'carol@example.com' },
  }

  it('failsClosedForAnAuthenticatedPrincipalWithoutSubject', async () => {
    const f = await start()
    const reply = await f.client.callTool('confirm', { target: 'a' }, withAuth(noSubject))
    expectRefused(reply)
    expect(refusalReasons(f.logger.entries)).toEqual(['no-stable-principal'])
  })

  it('bindsToACustomExtractorWhenConfigured', async () => {
    const f = await start({
      binder: originatingRequestBinder({ principal: (a) => a.claims?.email as string }),
    })
    const { state } = await firstRound(f.client, 'confirm', { target: 'a' }, withAuth(noSubject))
    const again = { ...noSubject, token: 'refreshed' }
    expect(
      resultOf(await retry(f.client, 'confirm', { target: 'a' }, state, yes, withAuth(again))).resultType,
    ).toBe('complete')
    const dave = { ...noSubject, claims: { email: 'dave@example.com' } }
    expectRefused(await retry(f.client, 'confirm', { target: 'a' }, state, yes, withAuth(dave)))
    const nobody = { ...noSubject, claims: {} }
    expectRefused(await f.client.callTool('confirm', { target: 'a' }, withAuth(nobody)))
  })
})

describe('what a handler sees across rounds', () => {
  it('doesNotActOnADeclinedAnswerThatCarriesContent', async () => {
    const f = await start()
    const { state, result } = await firstRound(f.client, 'rollback', { service: 'checkout' })
    expect(Object.keys(result.inputRequests as Json)).toEqual(['version'])
    const declined = { version: { action: 'decline', content: { version: '2026.10.1' } } }
    const reply = await retry(f.client, 'rollback', { service: 'checkout' }, state, declined)
    const done = resultOf(reply)
    expect(done.resultType).toBe('complete')
    expect(textOf(done)).toMatch(/nothing was done/i)
    expect(f.counters.rollback).toBe(0)
  })

  it('endsTheCallOnADeclineWithoutContentInsteadOfAskingAgain', async () => {
    const f = await start()
    const { state } = await firstRound(f.client, 'rollback', { service: 'checkout' })
    const done = resultOf(
      await retry(f.client, 'rollback', { service: 'checkout' }, state, { version: { action: 'decline' } }),
    )
    expect(done.resultType).toBe('complete')
    expect(done).not.toHaveProperty('inputRequests')
    expect(textOf(done)).toMatch(/nothing was done/i)
    expect(f.counters.rollback).toBe(0)
  })

  it('endsTheCallOnACancel', async () => {
    const f = await start()
    const { state } = await firstRound(f.client, 'rollback', { service: 'checkout' })
    const done = resultOf(
      await retry(f.client, 'rollback', { service: 'checkout' }, state, { version: { action: 'cancel' } }),
    )
    expect(done.resultType).toBe('complete')
    expect(textOf(done)).toMatch(/nothing was done/i)
    expect(f.counters.rollback).toBe(0)
  })

  it('actsOnAnAcceptedAnswer', async () => {
    const f = await start()
    const { state } = await firstRound(f.client, 'rollback', { service: 'checkout' })
    const accepted = { version: { action: 'accept', content: { version: '2026.10.1' } } }
    expect(
      textOf(resultOf(await retry(f.client, 'rollback', { service: 'checkout' }, state, accepted))),
    ).toBe('Rolled back checkout to 2026.10.1.')
    expect(f.counters.rollback).toBe(1)
  })

  it('completesTwoAwaitStyleAsksInThreeRoundsReplayingTheFirstAnswer', async () => {
    const f = await start()
    const one = await firstRound(f.client, 'two-step', {})
    expect(Object.keys(one.result.inputRequests as Json)).toEqual(['name'])
    const nameAnswer = { name: { action: 'accept', content: { name: 'Ada' } } }
    const twoReply = await retry(f.client, 'two-step', {}, one.state, nameAnswer)
    const two = resultOf(twoReply)
    expect(two.resultType).toBe('input_required')
    expect(Object.keys(two.inputRequests as Json)).toEqual(['sure'])
    // The client echoes only the last round's answer; the first comes back from the state.
    const three = await retry(f.client, 'two-step', {}, two.requestState as string, {
      sure: { action: 'accept', content: { ok: true } },
    })
    expect(textOf(resultOf(three))).toBe('first {"name":"Ada"}; second {"ok":true}')
    expect(f.counters.above).toBe(3)
    expect(f.counters.below).toBe(1)
  })

  it('refusesAnAskForAnUndeclaredCapabilityWith32021', async () => {
    const f = await start()
    const reply = await f.client.callTool('needs-sampling', {}, { caps: { elicitation: {} } })
    expect(reply.status).toBe(400)
    const error = errorOf(reply)
    expect(error.code).toBe(-32021)
    expect(error.data).toEqual({ requiredCapabilities: { sampling: {} } })
  })

  it('refusesAFormAskWhenOnlyUrlElicitationIsDeclared', async () => {
    const f = await start()
    const reply = await f.client.callTool('confirm', { target: 'a' }, { caps: { elicitation: { url: {} } } })
    expect(reply.status).toBe(400)
    expect(errorOf(reply)).toMatchObject({
      code: -32021,
      data: { requiredCapabilities: { elicitation: { form: {} } } },
    })
  })

  it('putsNoCacheHintsOnInputRequiredResults', async () => {
    const f = await start()
    const { result } = await firstRound(f.client, 'confirm', { target: 'a' })
    expect(result).not.toHaveProperty('ttlMs')
    expect(result).not.toHaveProperty('cacheScope')
    expect((result._meta as Json)['io.modelcontextprotocol/serverInfo']).toBeDefined()
    const read = resultOf(await f.client.request('resources/read', { uri: 'ask://weather' }))
    expect(read.resultType).toBe('input_required')
    expect(read).not.toHaveProperty('ttlMs')
    expect(read).not.toHaveProperty('cacheScope')
    const done = resultOf(
      await f.client.request('resources/read', {
        uri: 'ask://weather',
        requestState: read.requestState,
        inputResponses: yes,
      }),
    )
    expect(done).toMatchObject({ resultType: 'complete', ttlMs: 0, cacheScope: 'private' })
  })

  it('refusesNullInputResponses', async () => {
    const f = await start()
    const { state } = await firstRound(f.client, 'confirm', { target: 'a' })
    const reply = await retry(f.client, 'confirm', { target: 'a' }, state, null)
    expect(errorOf(reply).code).toBe(-32602)
  })

  it('asksAgainForAnUnreadableAnswer', async () => {
    const f = await start()
    const { state } = await firstRound(f.client, 'greet', {})
    for (const unreadable of [12345, { action: 'accept', content: {} }, { action: 'maybe' }, 'Ada']) {
      const result = resultOf(await retry(f.client, 'greet', {}, state, { user_name: unreadable }))
      expect(result.resultType).toBe('input_required')
      expect(Object.keys(result.inputRequests as Json)).toEqual(['user_name'])
    }
    const answered = await retry(f.client, 'greet', {}, state, {
      user_name: { action: 'accept', content: { name: 'Ada' } },
    })
    expect(textOf(resultOf(answered))).toBe('Hello, Ada!')
  })

  it('ignoresAnswersToQuestionsTheStateDidNotAsk', async () => {
    const f = await start()
    const one = await firstRound(f.client, 'two-step', {})
    // Answering the second question early does not skip it.
    const reply = await retry(f.client, 'two-step', {}, one.state, {
      name: { action: 'accept', content: { name: 'Ada' } },
      sure: { action: 'accept', content: { ok: true } },
      unrelated: { action: 'accept', content: {} },
    })
    const result = resultOf(reply)
    expect(result.resultType).toBe('input_required')
    expect(Object.keys(result.inputRequests as Json)).toEqual(['sure'])
    expect(f.counters.below).toBe(0)
  })
})

describe('a single-use tool', () => {
  it('actsOnceWhenTheSameAnswerIsRetriedSequentially', async () => {
    const f = await start()
    const { state } = await firstRound(f.client, 'deploy', { service: 'api' })
    const texts: string[] = []
    for (let i = 0; i < 3; i++)
      texts.push(textOf(resultOf(await retry(f.client, 'deploy', { service: 'api' }, state, yes))))
    expect(f.counters.deploy).toBe(1)
    expect(texts[0]).toBe('Deployed api.')
    for (const text of texts.slice(1)) {
      expect(text).toMatch(/^Already accepted/)
      // The recorded outcome comes along, so the client still learns what happened.
      expect(text).toContain('Deployed api.')
    }
  })

  it('actsOnceWhenTheSameAnswerArrivesFourTimesInParallel', async () => {
    const f = await start()
    const { state } = await firstRound(f.client, 'deploy', { service: 'db' })
    const replies = await Promise.all(
      Array.from({ length: 4 }, () => retry(f.client, 'deploy', { service: 'db' }, state, yes)),
    )
    const texts = replies.map((r) => textOf(resultOf(r)))
    expect(f.counters.deploy).toBe(1)
    expect(texts.filter((t) => t === 'Deployed db.')).toHaveLength(1)
    for (const text of texts.filter((t) => t !== 'Deployed db.')) {
      expect(text).toMatch(/^(Already accepted|This answer is being acted on right now)/)
    }
    // Once settled, a late duplicate hears what was accepted.
    const late = textOf(resultOf(await retry(f.client, 'deploy', { service: 'db' }, state, yes)))
    expect(late).toMatch(/^Already accepted/)
    expect(f.counters.deploy).toBe(1)
  })

  it('refusesAnswersWithoutRequestState', async () => {
    const f = await start()
    const reply = await retry(f.client, 'deploy', { service: 'api' }, undefined, yes)
    expectRefused(reply)
    expect(f.counters.deploy).toBe(0)
  })

  it('letsEachFreshRoundActOnce', async () => {
    const f = await start()
    for (const service of ['a', 'b']) {
      const { state } = await firstRound(f.client, 'deploy', { service })
      expect(textOf(resultOf(await retry(f.client, 'deploy', { service }, state, yes)))).toBe(
        `Deployed ${service}.`,
      )
    }
    expect(f.counters.deploy).toBe(2)
  })

  it('repeatsTheFollowUpQuestionWhenARoundThatAskedAgainIsRetried', async () => {
    const f = await start()
    const { state } = await firstRound(f.client, 'survey', {})
    const answer = { name: { action: 'accept', content: { name: 'Ada' } } }
    const first = resultOf(await retry(f.client, 'survey', {}, state, answer))
    expect(first.resultType).toBe('input_required')
    const again = resultOf(await retry(f.client, 'survey', {}, state, answer))
    expect(again.resultType).toBe('input_required')
    expect(textOf(again)).not.toMatch(/Already accepted/)
  })
})
