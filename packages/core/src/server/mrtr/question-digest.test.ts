/**
 * @module question-digest.test
 * A question's digest covers its whole canonical text: a form `elicitForm` kept (frozen, shared by
 * every question of its shape, its text kept) digests as a copy of it walked in full would.
 */
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { sha256Base64url } from '#crypto'
import { canonicalJson } from '../../security/request-state/canonical-json.ts'
import { elicitForm } from './input-requests.ts'
import { questionDigest } from './round-state.ts'

describe('questionDigest', () => {
  it('givesAQuestionOnAKeptFormTheDigestOfItsWholeText', () => {
    const ask = () =>
      elicitForm({
        message: 'Roll back?',
        schema: z.object({ version: z.enum(['1', '2']).describe('Which'), why: z.string().min(3) }),
      })
    const first = ask()
    const second = ask()
    const formOf = (question: ReturnType<typeof ask>) =>
      question.params.mode === 'form' ? question.params.requestedSchema : undefined
    expect(formOf(second)).toBe(formOf(first))
    expect(Object.isFrozen(formOf(first))).toBe(true)
    const whole = sha256Base64url(canonicalJson(structuredClone(second))).slice(0, 22)
    expect(questionDigest(second)).toBe(whole)
    expect(questionDigest(first)).toBe(whole)
  })
})
