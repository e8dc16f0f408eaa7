import { createTestClient } from '@tessera/core/testing'
import { describe, expect, it } from 'vitest'
import { buildServer } from '../src/server.js'

function setup() {
  const restarted: string[] = []
  const client = createTestClient(buildServer({ restart: async (service) => void restarted.push(service) }))
  return { client, restarted }
}

describe('restart_service', () => {
  it('restarts the service once the person confirms', async () => {
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

  it('leaves the service running when the person declines', async () => {
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

  it('asks the same question in a 2025-11-25 session', async () => {
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
