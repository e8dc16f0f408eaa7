/**
 * @module request-state-honest-retries.test
 * An honest retry of a multi round-trip call is accepted by the real HTTP server: another request
 * id, other `_meta`, reordered argument keys, a refreshed token of the same principal, a state
 * sealed under the previous key while it is still in the ring, and a replica with the same identity
 * and keys.
 */
import { describe, expect, it } from 'vitest'
import { resultOf, textOf } from '../helpers/mcp-http.ts'
import {
  alice,
  firstRound,
  KEY_A,
  KEY_B,
  retry,
  useStateServers,
  withAuth,
  yes,
} from './fixtures/state-server.ts'

const start = useStateServers()

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
