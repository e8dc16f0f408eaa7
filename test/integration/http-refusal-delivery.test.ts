/**
 * @module http-refusal-delivery.test
 * A refusal sent while the client is still writing its body reaches the client, over real HTTP on
 * 127.0.0.1: the rest of the body is read and thrown away instead of the socket being closed on
 * unread bytes (which resets the connection, and a client still writing then reports the reset,
 * not the 413). The wait is bounded: a client that stalls is cut at once, one that never stops
 * sending is cut after a few seconds.
 */
import { connect } from 'node:net'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { LoggedProcess } from '../helpers/logged-process.ts'

const script = fileURLToPath(new URL('./fixtures/refusing-server.ts', import.meta.url))
let server: LoggedProcess
let port: number
let url: string
beforeAll(async () => {
  server = new LoggedProcess(script, [])
  port = Number((await server.waitForEvent('listening')).port)
  url = `http://127.0.0.1:${port}/mcp`
})
afterAll(() => server.stop())

const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }

/** A body of `bytes` written as a stream, so its length is not declared and it is refused mid-way. */
function streamOf(bytes: number): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      controller.enqueue(new Uint8Array(bytes).fill(0x20))
      controller.close()
    },
  })
}

/** Opens a raw connection, sends `head`, then keeps writing while `pumping`; resolves at close. */
function rawClient(head: string, pumping: boolean) {
  const started = Date.now()
  const socket = connect(port, '127.0.0.1')
  let text = ''
  let open = true
  socket.setEncoding('utf8')
  socket.on('data', (chunk: string) => {
    text += chunk
  })
  socket.on('error', () => {})
  const closed = new Promise<{ after: number; text: string }>((resolve) =>
    socket.once('close', () => {
      open = false
      resolve({ after: Date.now() - started, text })
    }),
  )
  socket.write(head)
  const chunk = Buffer.alloc(16 << 10, 0x20)
  const pump = (): void => {
    while (open && socket.write(chunk)) {}
    if (open) socket.once('drain', pump)
  }
  if (pumping) pump()
  return closed
}

const head = (length: number): string =>
  [
    'POST /mcp HTTP/1.1',
    `host: 127.0.0.1:${port}`,
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
    `content-length: ${length}`,
    '',
    '',
  ].join('\r\n')

describe('a refusal sent before the body was read', () => {
  it('reachesAFetchClientStillStreamingABodyOverTheLimitEveryTime', async () => {
    const outcomes: Record<string, number> = {}
    for (let i = 0; i < 20; i++) {
      const outcome = await fetch(url, {
        method: 'POST',
        headers,
        body: streamOf(64 << 20),
        duplex: 'half',
      } as RequestInit).then(
        (response) => String(response.status),
        (error: { cause?: { code?: string } }) => error.cause?.code ?? 'error',
      )
      outcomes[outcome] = (outcomes[outcome] ?? 0) + 1
    }
    expect(outcomes).toEqual({ '413': 20 })
  })

  it('cutsAClientThatStopsSendingAfterTheRefusalWithinASecond', async () => {
    const { after, text } = await rawClient(head(10 << 20), false)
    expect(text).toMatch(/^HTTP\/1\.1 413 /)
    expect(text.toLowerCase()).toContain('connection: close')
    expect(after).toBeLessThan(1_500)
  })

  it('cutsAClientThatNeverStopsSendingAfterFiveSecondsWithItsAnswer', async () => {
    const { after, text } = await rawClient(head(2 ** 40), true)
    expect(text).toMatch(/^HTTP\/1\.1 413 /)
    expect(after).toBeGreaterThanOrEqual(4_500)
    expect(after).toBeLessThan(7_000)
  }, 15_000)
})
