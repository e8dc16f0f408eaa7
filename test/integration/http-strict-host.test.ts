/**
 * @module http-strict-host.test
 * `Host` and `Origin` read strictly, over real HTTP on 127.0.0.1 with requests written line by
 * line: a second `Host` is a malformed request (400, RFC 9112), so is a `Host` that is not a
 * host and an optional port (`[::1]evil.example`, `localhost:evil`, a port past 65535); an
 * `Origin` with a path is no origin (403). The well-formed spellings of the loopback names pass.
 */
import { createServer } from '@tessera/core'
import { listen, type RunningServer } from '@tessera/core/http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { silentLogger } from '../helpers/silent-logger.ts'
import { rawDiscover } from '../helpers/stalled-post.ts'

let running: RunningServer
beforeAll(async () => {
  running = await listen(createServer({ name: 'strict', version: '1', logger: silentLogger }), {
    host: '127.0.0.1',
    port: 0,
  })
})
afterAll(() => running.close())

const send = (lines: string[]) => rawDiscover(running.url, lines)
const codeOf = (text: string) => (JSON.parse(text) as { error?: { code: number; message: string } }).error

describe('Host and Origin, strictly', () => {
  it('refusesASecondHostHeaderAs400', async () => {
    const reply = await send([`host: 127.0.0.1:${running.port}`, 'host: evil.example'])
    expect(reply.status).toBe(400)
    expect(codeOf(reply.body)).toEqual({
      code: -32600,
      message: 'Bad request: Host was sent more than once.',
    })
  })

  it.each(['[::1]evil.example', 'localhost:evil', '127.0.0.1:99999', 'local host', '127.0.0.1:'])(
    'refusesTheHost%sAs400',
    async (host) => {
      const reply = await send([`host: ${host}`])
      expect(reply.status).toBe(400)
      expect(codeOf(reply.body)).toEqual({
        code: -32600,
        message: 'Bad request: Host is not a host and port.',
      })
    },
  )

  it.each(['http://localhost/path', 'http://localhost:3000/?q=1', 'http://user@localhost', 'null'])(
    'refusesTheOrigin%sAs403',
    async (origin) => {
      const reply = await send([`host: 127.0.0.1:${running.port}`, `origin: ${origin}`])
      expect(reply.status).toBe(403)
      expect(codeOf(reply.body)?.message).toBe(
        `Forbidden: Origin '${origin}' is not allowed: add its host to allowedHosts.`,
      )
    },
  )

  it.each([
    ['127.0.0.1:PORT', undefined],
    ['localhost', 'http://localhost:5173'],
    ['[::1]:PORT', 'http://[::1]:8080'],
    ['LOCALHOST:PORT', 'https://127.0.0.1'],
  ])('servesTheHost%sWithTheOrigin%s', async (host, origin) => {
    const lines = [`host: ${host.replace('PORT', String(running.port))}`]
    if (origin !== undefined) lines.push(`origin: ${origin}`)
    const reply = await send(lines)
    expect(reply.status).toBe(200)
  })
})
