/**
 * @module sse-events
 * Server-Sent Events as the test clients read them: one event per block (id, event, retry, data,
 * the parsed JSON-RPC message), read incrementally from a live response without dropping a chunk,
 * with a silence timeout so a test never hangs on a stream that stays open.
 */
import type { Json } from './json-rpc.ts'

/** One SSE event: `message` is the parsed JSON-RPC message, undefined for an empty (priming) event. */
export interface SseEvent {
  id?: string
  event?: string
  retry?: number
  data: string
  message?: Json
}

/** Reads an SSE response incrementally, one event at a time, without ever dropping a chunk. */
export class EventReader {
  private readonly reader: ReadableStreamDefaultReader<Uint8Array>
  private readonly decoder = new TextDecoder()
  private buffer = ''
  private readonly queue: SseEvent[] = []
  private pending: Promise<ReadableStreamReadResult<Uint8Array>> | undefined
  ended = false
  /** Raw text seen so far, comments included. */
  seen = ''

  constructor(readonly response: Response) {
    if (response.body === null) throw new Error('response has no body')
    this.reader = response.body.getReader()
  }

  /** The next event, or undefined once the stream ended; rejects after `timeoutMs` of silence. */
  async next(timeoutMs = 3_000): Promise<SseEvent | undefined> {
    const deadline = Date.now() + timeoutMs
    while (this.queue.length === 0 && !this.ended) {
      const remaining = deadline - Date.now()
      if (remaining <= 0) throw new Error(`no SSE event within ${timeoutMs} ms`)
      this.pending ??= this.reader.read()
      let timer: NodeJS.Timeout | undefined
      const timeout = new Promise<'timeout'>((resolve) => {
        timer = setTimeout(() => resolve('timeout'), remaining)
      })
      let chunk: ReadableStreamReadResult<Uint8Array> | 'timeout'
      try {
        chunk = await Promise.race([this.pending, timeout])
      } catch {
        // The connection was cut (reset): for a reader that is the end of the stream.
        chunk = { done: true, value: undefined }
      } finally {
        clearTimeout(timer)
      }
      if (chunk === 'timeout') throw new Error(`no SSE event within ${timeoutMs} ms`)
      this.pending = undefined
      if (chunk.done) {
        this.ended = true
        this.drain(true)
        break
      }
      const text = this.decoder.decode(chunk.value, { stream: true })
      this.seen += text
      this.buffer += text
      this.drain(false)
    }
    return this.queue.shift()
  }

  /** The next event that carries a JSON-RPC message (priming events skipped). */
  async nextMessage(timeoutMs = 3_000): Promise<Json | undefined> {
    for (;;) {
      const event = await this.next(timeoutMs)
      if (event === undefined) return undefined
      if (event.message !== undefined) return event.message
    }
  }

  /** True when no event arrives within `ms` (an ended stream counts as quiet). */
  async quietFor(ms: number): Promise<boolean> {
    let event: SseEvent | undefined
    try {
      event = await this.next(ms)
    } catch {
      return true
    }
    if (event === undefined) return true
    this.queue.unshift(event)
    return false
  }

  async cancel(): Promise<void> {
    await this.reader.cancel().catch(() => {})
  }

  private drain(final: boolean): void {
    const blocks = this.buffer.split(/\r?\n\r?\n/)
    this.buffer = final ? '' : (blocks.pop() ?? '')
    for (const block of blocks) {
      const event = parseEvent(block)
      if (event !== undefined) this.queue.push(event)
    }
  }
}

/** One SSE block; undefined for a block of comments only. */
export function parseEvent(block: string): SseEvent | undefined {
  const event: SseEvent = { data: '' }
  const data: string[] = []
  let any = false
  for (const line of block.split(/\r?\n/)) {
    if (line === '' || line.startsWith(':')) continue
    const colon = line.indexOf(':')
    const field = colon === -1 ? line : line.slice(0, colon)
    const value = colon === -1 ? '' : line.slice(colon + 1).replace(/^ /, '')
    any = true
    if (field === 'id') event.id = value
    else if (field === 'event') event.event = value
    else if (field === 'retry') event.retry = Number(value)
    else if (field === 'data') data.push(value)
  }
  if (!any) return undefined
  event.data = data.join('\n')
  if (event.data.trim() !== '') event.message = JSON.parse(event.data) as Json
  return event
}

/**
 * Reads an SSE body one raw event block at a time (undefined once the stream ended), for tests
 * that compare the exact frames; rejects after `timeoutMs` without a block.
 */
export function sseBlocks(response: Response, timeoutMs = 2_000) {
  if (response.body === null) throw new Error('response has no body')
  const reader = response.body.getReader()
  const decoder = new TextDecoder()
  let buffer = ''
  const next = async (): Promise<string | undefined> => {
    for (;;) {
      const end = buffer.indexOf('\n\n')
      if (end !== -1) {
        const block = buffer.slice(0, end)
        buffer = buffer.slice(end + 2)
        return block
      }
      let timer: NodeJS.Timeout | undefined
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no SSE event within ${timeoutMs} ms`)), timeoutMs)
      })
      const { done, value } = await Promise.race([reader.read(), timeout]).finally(() => clearTimeout(timer))
      if (done) return undefined
      buffer += decoder.decode(value, { stream: true })
    }
  }
  return { next, cancel: () => reader.cancel() }
}
