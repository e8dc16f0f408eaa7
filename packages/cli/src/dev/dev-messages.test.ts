import { LISTENING_CHANNEL as CORE_CHANNEL } from '@tessera/core/http'
import { describe, expect, it } from 'vitest'
import { LISTENING_CHANNEL } from './dev-messages.ts'

describe('dev-messages', () => {
  it('listensOnTheChannelCoreAnnouncesServersOn', () => {
    expect(LISTENING_CHANNEL).toBe(CORE_CHANNEL)
  })
})
