/**
 * @module event-id
 * The one event-id rule of the handshake era's resumable SSE streams, which every event store
 * follows and the transport reads back from `Last-Event-ID`: an event id names its stream (and a
 * stream names its session), so a resumption replays only the stream that broke.
 */
/** The longest stream id an event id can carry. */
export const MAX_STREAM_ID_LENGTH = 256

/**
 * The one event-id rule every event store follows: `<streamId>/<seq>`, where the stream id is
 * 1 to 256 characters without `/` and the sequence is a positive decimal integer without leading
 * zeros (at most `Number.MAX_SAFE_INTEGER`). Anything else names no event.
 */
export function parseEventId(eventId: unknown): { streamId: string; seq: number } | undefined {
  if (typeof eventId !== 'string') return undefined
  const slash = eventId.indexOf('/')
  if (slash <= 0 || slash > MAX_STREAM_ID_LENGTH || slash !== eventId.lastIndexOf('/')) return undefined
  const digits = eventId.slice(slash + 1)
  if (!/^[1-9][0-9]{0,15}$/.test(digits)) return undefined
  const seq = Number(digits)
  return Number.isSafeInteger(seq) ? { streamId: eventId.slice(0, slash), seq } : undefined
}

/** The id of the `seq`th event of a stream (the inverse of `parseEventId`). */
export function formatEventId(streamId: string, seq: number): string {
  return `${streamId}/${seq}`
}

/** Refuses a stream id that could not travel inside an event id. */
export function assertStreamId(streamId: unknown): asserts streamId is string {
  if (
    typeof streamId !== 'string' ||
    streamId === '' ||
    streamId.length > MAX_STREAM_ID_LENGTH ||
    streamId.includes('/')
  ) {
    throw new TypeError(`stream id must be 1-${MAX_STREAM_ID_LENGTH} characters without '/'`)
  }
}
