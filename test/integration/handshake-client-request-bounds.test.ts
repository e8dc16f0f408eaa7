/**
 * @module handshake-client-request-bounds.test
 * The bounds on server-to-client requests in the 2025-11-25 era: a request never answered ends
 * the call with an error after the request timeout, `notifications/cancelled` aborts the handler
 * (only for its own id and session) and ends its stream cleanly, even while it waits for an answer,
 * and a tool that asks forever is refused after the maximum number of rounds.
 */
import { describe, expect, it } from 'vitest'
import {
  EventReader,
  errorOf,
  gate,
  HandshakeClient,
  type Json,
  readAnswer,
  sleep,
} from '../helpers/handshake-client.ts'
import { logger, main, seen, strict, useAskingServers } from './fixtures/asking-servers.ts'

useAskingServers()

describe('bounds: timeout, cancellation, rounds', () => {
  it('endsACallWhoseRootsListIsNeverAnsweredWithAnErrorAfterRequestTimeoutMs', async () => {
    const client = await HandshakeClient.connect(strict.url)
    const t0 = performance.now()
    const reply = await client.callTool('roots-only', {}, { onRequest: () => 'ignore' })
    const elapsed = performance.now() - t0
    expect(reply.requests.map((r) => r.method)).toEqual(['roots/list'])
    expect(errorOf(reply).code).toBe(-32603)
    expect(elapsed).toBeGreaterThanOrEqual(280)
    expect(elapsed).toBeLessThan(2_000)
  })

  it('endsACallWhoseElicitationIsNeverAnsweredAfterRequestTimeoutMsInsteadOfHanging', async () => {
    const client = await HandshakeClient.connect(strict.url)
    const t0 = performance.now()
    const reply = await client.callTool('await-style', {}, { onRequest: () => 'ignore' })
    expect(performance.now() - t0).toBeLessThan(2_000)
    expect(reply.body).toBeDefined()
  })

  it('endsACallWhoseElicitationIsNeverAnsweredWithAnErrorNotAUserCancel', async () => {
    const client = await HandshakeClient.connect(strict.url)
    const reply = await client.callTool('await-style', {}, { onRequest: () => 'ignore' })
    const isError =
      reply.body?.error !== undefined || (reply.body?.result as Json | undefined)?.isError === true
    expect(isError).toBe(true)
  })

  it('abortsTheHandlerOnNotificationsCancelledAndWritesNoResponseForTheCall', async () => {
    seen.started = gate()
    seen.abortedGate = gate()
    const before = seen.aborted
    const client = await HandshakeClient.connect(main.url)
    const pending = client.open('tools/call', { name: 'wait-abort', arguments: {} }, { id: 'to-cancel' })
    await seen.started.promise
    const ack = await client.notify('notifications/cancelled', {
      requestId: 'to-cancel',
      reason: 'user gave up',
    })
    expect(ack.status).toBe(202)
    await seen.abortedGate.promise
    expect(seen.aborted).toBe(before + 1)
    const reply = await readAnswer(await pending, { expectId: 'to-cancel' })
    expect(reply.body).toBeUndefined()
    expect(reply.messages.filter((m) => m.id === 'to-cancel')).toEqual([])
    expect(reply.status).toBe(202)
  })

  it('ignoresNotificationsCancelledForAnotherIdOrAnotherSession', async () => {
    seen.started = gate()
    seen.abortedGate = gate()
    const client = await HandshakeClient.connect(main.url)
    const other = await HandshakeClient.connect(main.url)
    const pending = client.open('tools/call', { name: 'wait-abort', arguments: {} }, { id: 'keep-running' })
    await seen.started.promise
    await client.notify('notifications/cancelled', { requestId: 'something-else' })
    await other.notify('notifications/cancelled', { requestId: 'keep-running' })
    const raced = await Promise.race([
      seen.abortedGate.promise.then(() => 'aborted'),
      sleep(200).then(() => 'running'),
    ])
    expect(raced).toBe('running')
    await client.notify('notifications/cancelled', { requestId: 'keep-running' })
    await seen.abortedGate.promise
    await (await pending).text()
  })

  it('doesNotCancelRequest7OnACancelForTheStringRequestId7', async () => {
    seen.started = gate()
    seen.abortedGate = gate()
    const client = await HandshakeClient.connect(main.url)
    const pending = client.open('tools/call', { name: 'wait-abort', arguments: {} }, { id: 7 })
    await seen.started.promise
    await client.notify('notifications/cancelled', { requestId: '7' })
    const raced = await Promise.race([
      seen.abortedGate.promise.then(() => 'aborted'),
      sleep(200).then(() => 'running'),
    ])
    await client.notify('notifications/cancelled', { requestId: 7 })
    await (await pending).text()
    expect(raced).toBe('running')
  })

  /** Starts `await-style`, waits for its elicitation/create, then cancels the call. */
  async function cancelDuringAsk(id: string) {
    const client = await HandshakeClient.connect(main.url)
    const reader = new EventReader(
      await client.open('tools/call', { name: 'await-style', arguments: {} }, { id }),
    )
    const priming = await reader.next()
    const request = await reader.nextMessage()
    expect(request?.method).toBe('elicitation/create')
    const errorsBefore = logger.entries.filter((e) => e.level === 'error').length
    await client.notify('notifications/cancelled', { requestId: id })
    const rest: Json[] = []
    for (;;) {
      const message = await reader.nextMessage(2_000)
      if (message === undefined) break
      rest.push(message)
    }
    const errors = () => logger.entries.filter((e) => e.level === 'error').slice(errorsBefore)
    return { client, request: request!, priming: priming!, rest, errors }
  }

  it('stopsWaitingForAnElicitationAnswerOnNotificationsCancelledAndWritesNoResponse', async () => {
    const { client, request, rest } = await cancelDuringAsk('cancel-ask')
    expect(rest.filter((m) => m.id === 'cancel-ask')).toEqual([])
    // A late answer to the abandoned request is still acknowledged, and changes nothing.
    expect(
      (await client.answer(request.id as string, { result: { action: 'accept', content: { name: 'x' } } }))
        .status,
    ).toBe(202)
  })

  it('endsTheStreamOfACancelledCallCleanlyWithNothingLoggedAsAnError', async () => {
    const { errors } = await cancelDuringAsk('cancel-clean')
    expect(errors().map((e) => e.obj.event)).toEqual([])
  })

  it('endsAResumptionOfACancelledCallInsteadOfHoldingItOpenForever', async () => {
    const { client, priming } = await cancelDuringAsk('cancel-resume')
    const controller = new AbortController()
    const response = await client.get(priming.id, {}, controller.signal)
    expect(response.status).toBe(200)
    const reader = new EventReader(response)
    try {
      for (;;) if ((await reader.next(1_000)) === undefined) break
    } finally {
      controller.abort()
    }
  })

  it('refusesAToolThatAsksForeverAfterMaxRoundsOf3', async () => {
    const client = await HandshakeClient.connect(strict.url)
    const reply = await client.callTool(
      'forever',
      {},
      { onRequest: () => ({ result: { action: 'accept', content: {} } }) },
    )
    expect(reply.requests).toHaveLength(3)
    expect(reply.requests.map((r) => (r.params as Json).message)).toEqual([
      'Question 0?',
      'Question 1?',
      'Question 2?',
    ])
    const error = errorOf(reply)
    expect(error.code).toBe(-32602)
    expect(error.message).toMatch(/too many input rounds/)
  })
})
