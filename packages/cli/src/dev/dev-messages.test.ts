import { LISTENING_CHANNEL as CORE_CHANNEL, DEV_CHANNEL, registerDevConsole } from '@tessera/core/http'
import { describe, expect, it } from 'vitest'
import { DEV_CONSOLE_CHANNEL, DEV_CONSOLE_KEY, LISTENING_CHANNEL } from './dev-messages.ts'

describe('dev-messages', () => {
  it('listensOnTheChannelCoreAnnouncesServersOn', () => {
    expect(LISTENING_CHANNEL).toBe(CORE_CHANNEL)
  })

  it('subscribesTheConsoleWhereCorePublishesAndRegistersItWhereCoreLooks', () => {
    expect(DEV_CONSOLE_CHANNEL).toBe(DEV_CHANNEL)
    const handler = { handle: () => false, close() {} }
    registerDevConsole(handler)
    expect((globalThis as Record<symbol, unknown>)[Symbol.for(DEV_CONSOLE_KEY)]).toBe(handler)
    delete (globalThis as Record<symbol, unknown>)[Symbol.for(DEV_CONSOLE_KEY)]
  })
})
