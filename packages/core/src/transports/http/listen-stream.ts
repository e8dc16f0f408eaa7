/**
 * @module listen-stream
 * Serves a `subscriptions/listen` reply as an SSE stream with periodic comment keep-alives, so
 * idle-timeout proxies do not cut it. Closing the stream from the client ends the subscription.
 */
import type { Reply } from '../../reply.ts'
import { backgroundInterval } from '../../timers.ts'
import { type ReplyWriter, SSE_HEADERS, sseFrame } from './reply-writer.ts'

export function openListenStream(
  reply: Extract<Reply, { kind: 'stream' }>,
  writer: ReplyWriter,
  keepAliveMs: number,
): void {
  const stream = writer.sse(SSE_HEADERS)
  const timer = backgroundInterval(() => {
    if (!writer.closed) stream.write(': keep-alive\n\n')
  }, keepAliveMs)
  const closers: Array<() => void> = [() => clearInterval(timer)]
  let ended = false
  let gone = false
  writer.onClose(() => {
    gone = true
    for (const close of closers.splice(0)) close()
  })
  reply.open({
    send(message) {
      if (!ended && !writer.closed) stream.write(sseFrame(message))
    },
    end(final) {
      if (ended) return
      ended = true
      if (final !== undefined && !writer.closed) stream.write(sseFrame(final))
      clearInterval(timer)
      stream.end()
    },
    onClose(callback) {
      if (gone) callback()
      else closers.push(callback)
    },
  })
}
