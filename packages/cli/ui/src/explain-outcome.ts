/**
 * @module explain-outcome
 * A request that did not bring a result, in words: what happened (the HTTP status, the JSON-RPC
 * error, or that no answer came), what the server said, and what to do when the answer says it
 * (RFC 6750): a `WWW-Authenticate` challenge without an error asks for a token, `invalid_token`
 * for another one, `insufficient_scope` for one with the scope it names. The challenge decides,
 * not the status alone: a 403 for a foreign `Origin` asks for no token. A rate limit's refusal
 * says when to try again.
 */
import { challengeOf, parseChallenges } from '../../src/client/challenge.ts'
import type { RpcOutcome } from './mcp-client.ts'

export interface Explanation {
  /** One sentence: what happened. */
  summary: string
  /** What the server said, in its own words. */
  details: string[]
  /** What to do about it, when the answer tells. */
  advice?: string
}

/** Why `outcome` of `action` (`Calling rollback`, `tools/list`) brought no result; undefined when it did. */
export function explainOutcome(action: string, outcome: RpcOutcome): Explanation | undefined {
  if (outcome.result !== undefined && outcome.error === undefined) return undefined
  const http =
    outcome.status === 0 ? 'no HTTP answer' : `HTTP ${outcome.status} ${outcome.statusText}`.trimEnd()
  const details: string[] = []
  if (outcome.error !== undefined)
    details.push(`JSON-RPC error ${outcome.error.code}: ${outcome.error.message}`)
  if (outcome.problem !== undefined) details.push(capitalised(outcome.problem))
  details.push(
    outcome.withToken
      ? 'The request carried the token (Authorization: Bearer …).'
      : 'The request carried no token.',
  )
  const advice = outcome.challenge === undefined ? rateLimitAdvice(outcome) : adviceOf(outcome, details)
  let summary: string
  if (outcome.status === 0) summary = `${action} failed: the server did not answer.`
  else if (!outcome.ok) summary = `${action} was refused: ${http}.`
  else if (outcome.error !== undefined)
    summary = `${action} failed: the server answered with an error (${http}).`
  else summary = `${action} brought no result (${http}).`
  if (outcome.status === 0 && advice === undefined)
    return {
      summary,
      details,
      advice: 'Is the server running? `tessera dev` says in its terminal when the server exits or restarts.',
    }
  return advice === undefined ? { summary, details } : { summary, details, advice }
}

/** What the challenge asks for; its description joins the details. */
function adviceOf(outcome: RpcOutcome, details: string[]): string | undefined {
  const challenges = parseChallenges(outcome.challenge!)
  const bearer = challengeOf(challenges, 'Bearer')
  const challenge = bearer ?? challenges[0]
  if (challenge === undefined) return undefined
  const { error, error_description: description, scope } = challenge.params
  if (description !== undefined && !details.some((d) => d.includes(description)))
    details.splice(details.length - 1, 0, `The server says: ${description}`)
  if (bearer === undefined)
    return `The server asks for ${challenge.scheme} credentials, which the console cannot send: it sends bearer tokens only.`
  const where =
    challenge.params.resource_metadata === undefined
      ? ''
      : ` Its authorization server is named in ${challenge.params.resource_metadata}.`
  if (error === 'insufficient_scope') {
    const needed = scope ?? requiredScopes(outcome)
    return needed === undefined
      ? `Paste a token with the scopes this call needs.${where}`
      : `Paste a token with the scope ${needed} (the token sent lacks it).${where}`
  }
  const known = scope === undefined ? '' : ` Scopes this server knows: ${scope}.`
  if (!outcome.withToken)
    return `This server needs an access token: paste one in “Access token” above.${known}${where}`
  if (error === 'invalid_token')
    return `The server refused the token: paste another one (for this server, not expired).${where}`
  if (error === 'invalid_request')
    return `The server could not read the token: paste it again, as it was issued.`
  return `Paste another access token.${known}${where}`
}

/** When a rate limit refused it (its error's `retryAfterMs`), when to try again. */
function rateLimitAdvice(outcome: RpcOutcome): string | undefined {
  const retryAfterMs = (outcome.error?.data as { retryAfterMs?: unknown } | undefined)?.retryAfterMs
  if (typeof retryAfterMs !== 'number') return undefined
  return `A rate limit refused it: try again in ${Math.max(1, Math.ceil(retryAfterMs / 1000))} s.`
}

/** The scopes a 403's JSON-RPC error lists, when its challenge did not name them. */
function requiredScopes(outcome: RpcOutcome): string | undefined {
  const scopes = (outcome.error?.data as { requiredScopes?: unknown } | undefined)?.requiredScopes
  return Array.isArray(scopes) && scopes.every((s) => typeof s === 'string') ? scopes.join(' ') : undefined
}

function capitalised(text: string): string {
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}.`
}
