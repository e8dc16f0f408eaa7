/**
 * @module mcp-client.test
 * What the console makes of a pasted token: trimmed, without a `Bearer ` a person copied with
 * it, and refused with the character at fault when it cannot be a bearer token; and the token
 * kept out of any text the page shows.
 */
import { describe, expect, it } from 'vitest'
import { checkedToken, redactToken } from './mcp-client.ts'

describe('checkedToken', () => {
  it('takesATokenAsPastedWithOrWithoutItsScheme', () => {
    expect(checkedToken('  eyJh.eyJz.c2ln  \n')).toEqual({ token: 'eyJh.eyJz.c2ln' })
    expect(checkedToken('Bearer abc-_~+/==')).toEqual({ token: 'abc-_~+/==' })
    expect(checkedToken('bearer   abc')).toEqual({ token: 'abc' })
  })

  it('refusesWhatCannotBeABearerTokenSayingWhy', () => {
    expect(checkedToken('   ')).toEqual({ problem: 'Paste a token first.' })
    const rule = 'a token is letters, digits and - . _ ~ + /, then = padding.'
    expect(checkedToken('abc def')).toEqual({
      problem: `That is not a bearer token (it holds a space or a line break): ${rule}`,
    })
    expect(checkedToken('abc"def')).toEqual({ problem: `That is not a bearer token (it holds “"”): ${rule}` })
    expect(checkedToken('ab=cd')).toEqual({ problem: `That is not a bearer token (it holds “=”): ${rule}` })
  })
})

describe('redactToken', () => {
  it('replacesEveryCopyOfTheTokenInStringsAndLeavesNamesAlone', () => {
    const message = { message: 'token abc.def refused; abc.def', data: { abc: ['x abc.def'], at: 1 } }
    expect(redactToken(message, 'abc.def')).toEqual({
      message: 'token … refused; …',
      data: { abc: ['x …'], at: 1 },
    })
    expect(redactToken({ at: 5, type: 'state' }, 'a')).toEqual({ at: 5, type: 'st…te' })
    expect(redactToken('no token here', undefined)).toBe('no token here')
  })
})
