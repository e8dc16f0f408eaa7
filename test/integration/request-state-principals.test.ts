/**
 * @module request-state-principals.test
 * requestState binding for principals without a stable identity: an authenticated caller without
 * a subject fails closed, and a configured principal extractor binds to what it extracts.
 */
import type { AuthInfo } from '@tessera/core'
import { originatingRequestBinder } from '@tessera/core/request-state'
import { describe, expect, it } from 'vitest'
import { resultOf } from '../helpers/mcp-http.ts'
import {
  expectRefused,
  firstRound,
  refusalReasons,
  retry,
  useStateServers,
  withAuth,
  yes,
} from './fixtures/state-server.ts'

const start = useStateServers()

describe('principals without a stable identity', () => {
  const noSubject: AuthInfo = {
    issuer: 'https://idp.example',
    clientId: 'ops-app',
    token: 't',
    claims: { email: 'carol@example.com' },
  }

  it('failsClosedForAnAuthenticatedPrincipalWithoutSubject', async () => {
    const f = await start()
    const reply = await f.client.callTool('confirm', { target: 'a' }, withAuth(noSubject))
    expectRefused(reply)
    expect(refusalReasons(f.logger.entries)).toEqual(['no-stable-principal'])
  })

  it('bindsToACustomExtractorWhenConfigured', async () => {
    const f = await start({
      binder: originatingRequestBinder({ principal: (a) => a.claims?.email as string }),
    })
    const { state } = await firstRound(f.client, 'confirm', { target: 'a' }, withAuth(noSubject))
    const again = { ...noSubject, token: 'refreshed' }
    expect(
      resultOf(await retry(f.client, 'confirm', { target: 'a' }, state, yes, withAuth(again))).resultType,
    ).toBe('complete')
    const dave = { ...noSubject, claims: { email: 'dave@example.com' } }
    expectRefused(await retry(f.client, 'confirm', { target: 'a' }, state, yes, withAuth(dave)))
    const nobody = { ...noSubject, claims: {} }
    expectRefused(await f.client.callTool('confirm', { target: 'a' }, withAuth(nobody)))
  })
})
