import { createTestClient } from '@tessera/core/testing'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { buildServer } from '../src/server.js'

function setup() {
  const restarted: string[] = []
  const client = createTestClient(buildServer({ restart: async (service) => void restarted.push(service) }))
  return { client, restarted }
}

describe('restart_service', () => {
  it('restartsTheServiceOnceThePersonConfirms', async () => {
    const { client, restarted } = setup()
    const result = await client.callTool(
      'restart_service',
      { service: 'api' },
      {
        answer: { confirm: { action: 'accept', content: { confirm: true } } },
      },
    )
    expect(result.structuredContent).toEqual({ service: 'api', restarted: true })
    expect(restarted).toEqual(['api'])
  })

  it('leavesTheServiceRunningWhenThePersonDeclines', async () => {
    const { client, restarted } = setup()
    const result = await client.callTool(
      'restart_service',
      { service: 'api' },
      {
        answer: { confirm: { action: 'decline' } },
      },
    )
    expect(result.structuredContent).toEqual({ service: 'api', restarted: false })
    expect(restarted).toEqual([])
  })

  it('asksTheSameQuestionInA20251125Session', async () => {
    const restarted: string[] = []
    const client = createTestClient(buildServer({ restart: async (s) => void restarted.push(s) }), {
      era: 'handshake',
    })
    await client.callTool(
      'restart_service',
      { service: 'db' },
      {
        answer: { confirm: { action: 'accept', content: { confirm: true } } },
      },
    )
    expect(restarted).toEqual(['db'])
    await client.close()
  })
})

describe('a tool that needs a scope', () => {
  // The caller's scopes come from its access token over HTTP; here the test says who calls.
  function withStatusTool() {
    const app = buildServer({ restart: async () => {} })
    return app.tool(
      'service_status',
      {
        description: 'Says whether a service is running.',
        input: z.object({ service: z.string() }),
        scopes: ['ops:read'],
      },
      ({ service }) => `${service} is running.`,
    )
  }

  it('answersACallerHoldingTheScope', async () => {
    const client = createTestClient(withStatusTool(), { auth: { subject: 'ada', scopes: ['ops:read'] } })
    const result = await client.callTool('service_status', { service: 'api' })
    expect(result.content).toEqual([{ type: 'text', text: 'api is running.' }])
  })

  it('refusesACallerWithoutItNamingTheScope', async () => {
    const client = createTestClient(withStatusTool())
    await expect(client.callTool('service_status', { service: 'api' })).rejects.toMatchObject({
      data: { requiredScopes: ['ops:read'] },
    })
  })
})
