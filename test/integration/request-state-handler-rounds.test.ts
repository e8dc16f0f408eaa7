/**
 * @module request-state-handler-rounds.test
 * What a handler sees across multi round-trip rounds over the real HTTP server: a decline or cancel
 * ends the call (content sent with a decline is dropped), an accepted answer is acted on, await-style
 * asks replay earlier answers from the state, asks for undeclared capabilities are -32021,
 * input_required results carry no cache hints, and unreadable or unasked answers do not advance.
 */
import { describe, expect, it } from 'vitest'
import { errorOf, type Json, resultOf, textOf } from '../helpers/mcp-http.ts'
import { firstRound, retry, useStateServers, yes } from './fixtures/state-server.ts'

const start = useStateServers()

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
