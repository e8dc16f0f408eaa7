/**
 * @module rollback-answers.test
 * Three classic defects of asking before a destructive action, pinned over real HTTP: an answer's
 * action is read before its content, a refusal ends the call, and one signed answer rolls back at
 * most once, for the request it was minted for only.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { answer, type McpClient, type ToolResult, textOf } from './mcp-client.ts'
import { startOpsServer, type TestServer } from './ops-test-server.ts'

let server: TestServer
let client: McpClient
beforeEach(async () => {
  server = await startOpsServer()
  client = server.client
})
afterEach(() => server.close())

/** First round: the ask. Returns its state and the versions it offered. */
async function ask(service: string): Promise<{ state: string; offered: string[] }> {
  const reply = await client.callTool('rollback', { service })
  expect(reply.status).toBe(200)
  const result = reply.result as ToolResult
  expect(result.resultType).toBe('input_required')
  const schema = result.inputRequests?.version?.params.requestedSchema as {
    properties: { version: { enum: string[] } }
  }
  return { state: result.requestState!, offered: schema.properties.version.enum }
}

function retry(service: string, state: string, response: Record<string, unknown>) {
  return client.callTool(
    'rollback',
    { service },
    { inputResponses: { version: response }, requestState: state },
  )
}

async function currentVersion(service: string): Promise<string> {
  return (await server.log.history(service)).at(-1)!.version
}

describe('rollback asks before it acts', () => {
  it('asksWithOneFormWhoseVersionOffersTheEarlierVersionsNewestFirst', async () => {
    const reply = await client.callTool('rollback', { service: 'checkout' })
    const result = reply.result as ToolResult
    expect(Object.keys(result.inputRequests ?? {})).toEqual(['version'])
    const request = result.inputRequests!.version!
    expect(request.method).toBe('elicitation/create')
    expect(request.params).toMatchObject({
      mode: 'form',
      requestedSchema: {
        type: 'object',
        properties: { version: { type: 'string', enum: ['2026.10.1', '2026.10.0', '2026.9.1', '2026.9.0'] } },
        required: ['version'],
      },
    })
  })

  it('rollsBackOnceOnAnAcceptedAnswerAppendedAsARollbackNowTheCurrentVersion', async () => {
    const { state, offered } = await ask('checkout')
    const reply = await retry('checkout', state, answer('accept', { version: offered[0]! }))
    expect(reply.result?.resultType).toBe('complete')
    expect(reply.result?.isError).toBeUndefined()
    expect(reply.result?.structuredContent).toMatchObject({
      outcome: 'rolled_back',
      from: '2026.10.2',
      to: '2026.10.1',
    })
    const history = await server.log.history('checkout')
    expect(history.at(-1)).toMatchObject({
      kind: 'rollback',
      version: '2026.10.1',
      previousVersion: '2026.10.2',
    })
    const status = await client.callTool('service_status', { service: 'checkout' })
    expect(status.result?.structuredContent).toMatchObject({ currentVersion: '2026.10.1' })
  })

  it('aDeclinedAnswerWithContentDoesNotRollBack', async () => {
    const { state, offered } = await ask('checkout')
    const reply = await retry('checkout', state, answer('decline', { version: offered[0]! }))
    expect(reply.status).toBe(200)
    expect(reply.result?.resultType).toBe('complete')
    expect(textOf(reply.result)).toMatch(/^Nothing was done: the rollback of checkout was declined\.$/)
    expect(reply.result?.structuredContent).toEqual({ service: 'checkout', outcome: 'declined' })
    expect(await server.rollbacks('checkout')).toBe(0)
    expect(await currentVersion('checkout')).toBe('2026.10.2')
  })

  it('aDeclinedAnswerWithoutContentEndsTheCallInsteadOfAskingAgain', async () => {
    const { state } = await ask('search')
    const reply = await retry('search', state, answer('decline'))
    expect(reply.result?.resultType).toBe('complete')
    expect(reply.result?.inputRequests).toBeUndefined()
    expect(reply.result?.requestState).toBeUndefined()
    expect(textOf(reply.result)).toContain('Nothing was done')
    expect(await currentVersion('search')).toBe('3.10.0')
  })

  it('aCancelledAnswerEndsTheCall', async () => {
    for (const withContent of [false, true]) {
      const { state, offered } = await ask('inventory')
      const cancelled = withContent ? answer('cancel', { version: offered[0]! }) : answer('cancel')
      const reply = await retry('inventory', state, cancelled)
      expect(reply.result?.resultType).toBe('complete')
      expect(reply.result?.requestState).toBeUndefined()
      expect(reply.result?.structuredContent).toEqual({ service: 'inventory', outcome: 'cancelled' })
    }
    expect(await server.rollbacks('inventory')).toBe(0)
  })

  it('asksAgainOnlyWhenTheAnswerCannotBeReadAcceptedWithoutAVersion', async () => {
    const { state } = await ask('checkout')
    const reply = await retry('checkout', state, answer('accept', {}))
    expect(reply.result?.resultType).toBe('input_required')
    expect(await server.rollbacks('checkout')).toBe(0)
  })

  it('anAcceptedVersionOutsideTheOfferIsAskedAgainAndDoesNothing', async () => {
    // The form's schema offers the earlier versions only, so any other answer cannot be read.
    for (const version of ['9.9.9', '2026.10.2']) {
      const { state } = await ask('checkout')
      const reply = await retry('checkout', state, answer('accept', { version }))
      expect(reply.result?.resultType).toBe('input_required')
    }
    expect(await server.rollbacks('checkout')).toBe(0)
  })

  it('aNamedVersionThatIsNotEarlierIsAnErrorAndDoesNothing', async () => {
    const reply = await client.callTool('rollback', { service: 'checkout', version: '9.9.9' })
    expect(reply.result?.isError).toBe(true)
    expect(textOf(reply.result)).toContain('9.9.9 is not an earlier version of checkout')
    expect(textOf(reply.result)).toContain('Nothing was done')
    expect(await server.rollbacks('checkout')).toBe(0)
  })
})

describe('one answer, one rollback, for the request it was minted for', () => {
  it('anAnswerWithoutRequestStateIsRefused', async () => {
    const reply = await client.callTool(
      'rollback',
      { service: 'checkout' },
      { inputResponses: { version: answer('accept', { version: '2026.10.1' }) } },
    )
    expect(reply.status).toBe(400)
    expect(reply.error).toMatchObject({
      code: -32602,
      message: 'Invalid params: the requestState is invalid or expired.',
    })
    expect(await server.rollbacks('checkout')).toBe(0)
  })

  it('anAnswerMintedForAnotherRequestIsRefused', async () => {
    const { state } = await ask('checkout')
    const reply = await retry('postgres-orders', state, answer('accept', { version: '16.4-r1' }))
    expect(reply.status).toBe(400)
    expect(reply.error).toMatchObject({
      code: -32602,
      message: 'Invalid params: the requestState is invalid or expired.',
    })
    // Also refused on the right service with other arguments, and on another tool.
    const extra = await client.callTool(
      'rollback',
      { service: 'checkout', version: '2026.10.1' },
      { inputResponses: { version: answer('accept', { version: '2026.10.1' }) }, requestState: state },
    )
    expect(extra.status).toBe(400)
    expect(await server.rollbacks('checkout')).toBe(0)
    expect(await server.rollbacks('postgres-orders')).toBe(0)
  })

  it('aTamperedRequestStateIsRefused', async () => {
    const { state } = await ask('checkout')
    const tampered = `${state.slice(0, -3)}${state.endsWith('AAA') ? 'BBB' : 'AAA'}`
    const reply = await retry('checkout', tampered, answer('accept', { version: '2026.10.1' }))
    expect(reply.status).toBe(400)
    expect(reply.error?.code).toBe(-32602)
    expect(await server.rollbacks('checkout')).toBe(0)
  })

  it('aReplayedAnswerIsNotActedOnTwice', async () => {
    const { state } = await ask('checkout')
    const accepted = answer('accept', { version: '2026.10.0' })
    const first = await retry('checkout', state, accepted)
    expect(textOf(first.result)).toMatch(/^Rolled checkout back from 2026\.10\.2 to 2026\.10\.0/)
    for (let i = 0; i < 3; i++) {
      const again = await retry('checkout', state, accepted)
      expect(again.status).toBe(200)
      expect(again.result?.isError).toBeUndefined()
      expect(textOf(again.result)).toMatch(
        /^Already accepted: this answer was acted on before; nothing was done twice\./,
      )
      // The duplicate is told what was accepted: the original outcome follows the note.
      expect(textOf(again.result)).toContain('Rolled checkout back from 2026.10.2 to 2026.10.0')
    }
    expect(await server.rollbacks('checkout')).toBe(1)
  })

  it('aReplayedAnswerSentInParallelIsActedOnOnce', async () => {
    const { state, offered } = await ask('identity')
    const accepted = answer('accept', { version: offered[0]! })
    const replies = await Promise.all(Array.from({ length: 6 }, () => retry('identity', state, accepted)))
    const texts = replies.map((r) => textOf(r.result))
    expect(texts.filter((t) => t.startsWith('Rolled identity back'))).toHaveLength(1)
    expect(texts.filter((t) => /^(Already accepted|This answer is being acted on)/.test(t))).toHaveLength(5)
    expect(await server.rollbacks('identity')).toBe(1)
  })

  it('anAnswerDecidedOnAHistoryThatHasMovedSinceDoesNothingAndAsksAboutWhatIsTrueNow', async () => {
    const one = await ask('payments-gateway')
    const two = await ask('payments-gateway')
    expect(
      (await retry('payments-gateway', one.state, answer('accept', { version: '4.12.1' }))).result?.isError,
    ).toBeUndefined()
    // The question the second answer answered is not the one the moved history asks.
    const stale = await retry('payments-gateway', two.state, answer('accept', { version: '4.12.0' }))
    const result = stale.result as ToolResult
    expect(result.resultType).toBe('input_required')
    expect(String(result.inputRequests?.version?.params.message)).toContain('back from 4.12.1?')
    expect(await server.rollbacks('payments-gateway')).toBe(1)
  })

  it('aCallNamingTheVersionIsAnOrdinaryCallNoAskNoStateCheckedAgainstTheHistory', async () => {
    const first = await client.callTool('rollback', { service: 'notifications', version: '9.4.1' })
    expect(first.result?.resultType).toBe('complete')
    expect(first.result?.requestState).toBeUndefined()
    expect(first.result?.structuredContent).toMatchObject({
      outcome: 'rolled_back',
      from: '9.5.0',
      to: '9.4.1',
    })
    // Repeating it repeats the request; it is refused only because 9.4.1 now runs, not as a replay.
    const repeated = await client.callTool('rollback', { service: 'notifications', version: '9.4.1' })
    expect(repeated.result?.isError).toBe(true)
    expect(textOf(repeated.result)).toContain(
      '9.4.1 is not an earlier version of notifications (running 9.4.1',
    )
    const further = await client.callTool('rollback', { service: 'notifications', version: '9.4.0' })
    expect(further.result?.structuredContent).toMatchObject({
      outcome: 'rolled_back',
      from: '9.4.1',
      to: '9.4.0',
    })
    expect(await server.rollbacks('notifications')).toBe(2)
  })

  it('doesNotAskAClientThatCannotAnswer32021', async () => {
    const reply = await server.clientWith({ capabilities: {} }).callTool('rollback', { service: 'checkout' })
    expect(reply.status).toBe(400)
    expect(reply.error).toMatchObject({ code: -32021, data: { requiredCapabilities: { elicitation: {} } } })
  })

  it('anUnknownServiceIsAToolErrorNotAnAsk', async () => {
    const reply = await client.callTool('rollback', { service: 'nope' })
    expect(reply.result?.isError).toBe(true)
    expect(textOf(reply.result)).toContain("Unknown service 'nope'")
  })
})
