/**
 * @module loopback.test
 * The console's loopback check on real node:http requests, written line by line so that a test
 * sends any `Host` (twice, with a port past 65535, none at all) and any `Origin`.
 */
import { createServer, type Server } from 'node:http'
import { connect } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { foreignRequest } from './loopback.ts'

let server: Server
let port: number
beforeAll(async () => {
  // Each request is answered with the check's verdict, `null` when it would be served.
  server = createServer((req, res) => res.end(JSON.stringify(foreignRequest(req) ?? null)))
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  port = (server.address() as { port: number }).port
})
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

/** The verdict on a GET with these header lines (HTTP/1.0 when it sends no Host, which 1.1 requires). */
function verdictOn(lines: string[]): Promise<unknown> {
  const version = lines.some((line) => line.toLowerCase().startsWith('host:')) ? '1.1' : '1.0'
  const text = [`GET /_tessera/ HTTP/${version}`, ...lines, 'connection: close', '', ''].join('\r\n')
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1')
    let raw = ''
    socket.setEncoding('utf8')
    socket.on('data', (chunk: string) => {
      raw += chunk
    })
    socket.once('error', reject)
    socket.once('close', () => resolve(JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4))))
    socket.write(text)
  })
}

const host = (value: string) => `host: ${value}`

describe('foreignRequest', () => {
  it('servesALoopbackHostWithoutOriginOrWithItsOwn', async () => {
    for (const name of ['localhost:3000', '127.0.0.1:3000', '[::1]:3000', 'LOCALHOST:8080', '127.0.0.1']) {
      expect(await verdictOn([host(name)])).toBeNull()
      expect(await verdictOn([host(name), `origin: http://${name}`])).toBeNull()
    }
    expect(await verdictOn([host('127.0.0.1:65535')])).toBeNull()
  })

  it('refusesAForeignHostWhateverTheOrigin', async () => {
    for (const name of ['evil.example:3000', '10.0.0.5:3000', 'localhost.evil.example', '127.0.0.1.nip.io']) {
      expect(await verdictOn([host(name)])).toEqual({
        status: 403,
        error: 'Forbidden: Host is not a loopback name; the console answers loopback requests only.',
      })
    }
    expect(await verdictOn([])).toEqual({
      status: 403,
      error: 'Forbidden: Host is missing; the console answers loopback requests only.',
    })
  })

  it('refusesAHostSentTwiceWhicheverComesFirst', async () => {
    for (const hosts of [
      ['127.0.0.1:3000', 'evil.example'],
      ['evil.example', '127.0.0.1:3000'],
      ['localhost:3000', 'localhost:3000'],
    ]) {
      expect(await verdictOn(hosts.map(host))).toEqual({
        status: 400,
        error: 'Bad request: Host was sent more than once.',
      })
    }
  })

  it('refusesAHostThatIsNotAHostAndPort', async () => {
    for (const name of [
      '127.0.0.1:65536',
      'localhost:99999',
      '[::1]:65536',
      'localhost:evil',
      '127.0.0.1:',
      '',
    ]) {
      expect(await verdictOn([host(name)])).toEqual({
        status: 400,
        error: 'Bad request: Host is not a host and port.',
      })
    }
  })

  it('refusesAnOriginThatIsNotThisConsole', async () => {
    for (const origin of ['http://evil.example', 'http://127.0.0.1:3001', 'https://127.0.0.1:3000', 'null']) {
      expect(await verdictOn([host('127.0.0.1:3000'), `origin: ${origin}`])).toEqual({
        status: 403,
        error: 'Forbidden: Origin is not this console; the console answers loopback requests only.',
      })
    }
  })
})
