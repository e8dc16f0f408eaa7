/**
 * @module request-state-single-use.test
 * A single-use tool over the real HTTP server acts at most once per accepted answer: sequential and
 * parallel duplicates hear the recorded outcome, answers without a requestState are refused, each
 * fresh round acts once, and a retried round that asked again repeats its question.
 */
import { describe, expect, it } from 'vitest'
import { resultOf, textOf } from '../helpers/mcp-http.ts'
import { expectRefused, firstRound, retry, useStateServers, yes } from './fixtures/state-server.ts'

const start = useStateServers()

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
