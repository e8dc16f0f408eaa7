/**
 * @module options.test
 * The options of the three HTTP faces are checked before anything is served: a misspelled one is
 * refused by name with the one it meant (the names users got wrong: `allowHosts`,
 * `maxBodySize`), `listen` refuses before it binds a port, and an option of `listen`'s own is no
 * option of the listener it builds on.
 */
import { describe, expect, it } from 'vitest'
import { silentLogger } from '../../../../../test/helpers/silent-logger.ts'
import { createServer } from '../../server/create-server.ts'
import { createFetchHandler } from './fetch.ts'
import { listen } from './listen.ts'
import { createNodeListener } from './node-listener.ts'
import type { HttpOptions } from './options.ts'

const app = () => createServer({ name: 'options', version: '1.0.0', logger: silentLogger })
const wrong = (options: Record<string, unknown>) => options as HttpOptions

describe('HTTP options', () => {
  it('refusesTheMisspellingsUsersReportedOnEveryFace', () => {
    expect(() => createFetchHandler(app(), wrong({ allowHosts: ['mcp.example.com'] }))).toThrow(
      new TypeError("createFetchHandler: unknown option 'allowHosts' (did you mean 'allowedHosts'?)."),
    )
    expect(() => createNodeListener(app(), wrong({ maxBodySize: 1024 }))).toThrow(
      new TypeError("createNodeListener: unknown option 'maxBodySize' (did you mean 'maxBodyBytes'?)."),
    )
  })

  it('refusesAMisspelledListenOptionBeforeBindingAPort', async () => {
    await expect(listen(app(), { port: 0, ...wrong({ maxBodySize: 1024 }) })).rejects.toThrow(
      new TypeError("listen: unknown option 'maxBodySize' (did you mean 'maxBodyBytes'?)."),
    )
    await expect(listen(app(), wrong({ prot: 0 }))).rejects.toThrow(
      "listen: unknown option 'prot' (did you mean 'port'?).",
    )
  })

  it('servesWithEveryOptionOfListenAndRefusesThemOnTheListener', async () => {
    const running = await listen(app(), {
      host: '127.0.0.1',
      port: 0,
      shutdownGraceMs: 100,
      headersTimeoutMs: 1000,
      maxConnections: 10,
      devConsole: false,
      maxBodyBytes: 2048,
      health: true,
    })
    try {
      expect((await fetch(new URL('/healthz', running.url))).status).toBe(200)
    } finally {
      await running.close()
    }
    expect(() => createNodeListener(app(), wrong({ port: 3000 }))).toThrow(
      "createNodeListener: unknown option 'port'.",
    )
  })
})
