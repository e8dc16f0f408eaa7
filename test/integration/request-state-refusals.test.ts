/**
 * @module request-state-refusals.test
 * A requestState echoed to the real HTTP server is refused, always with the same -32602 and HTTP
 * 400 and the reason only in the logs, when it was tampered with, expired, sealed under a key that
 * left the ring, minted by another server identity, spelled a second way, not a string, or echoed on
 * another call: another tool, other arguments, another principal or none.
 */
import { describe, expect, it } from 'vitest'
import { resultOf, textOf } from '../helpers/mcp-http.ts'
import {
  alice,
  bob,
  expectRefused,
  firstRound,
  KEY_A,
  KEY_B,
  paddedYes,
  refusalReasons,
  retry,
  TTL_SECONDS,
  useStateServers,
  withAuth,
  yes,
} from './fixtures/state-server.ts'

const start = useStateServers()

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
