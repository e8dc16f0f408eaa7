/**
 * @module token-verifier.test
 * The rejection error: recognisable by name and reason, its message made of the reason alone.
 */
import { describe, expect, it } from 'vitest'
import { TokenRejectedError } from './token-verifier.ts'

describe('TokenRejectedError', () => {
  it('namesTheReasonAndNothingElse', () => {
    const cause = new Error('ERR_JWT_EXPIRED')
    const error = new TokenRejectedError('expired', { cause })
    expect(error).toBeInstanceOf(Error)
    expect(error.name).toBe('TokenRejectedError')
    expect(error.reason).toBe('expired')
    expect(error.message).toBe('Access token rejected: expired.')
    expect(error.cause).toBe(cause)
  })
})
