/**
 * @module observed-request
 * The frame every request is served in, in either era: its watch by the observer's subscribers
 * (its span, opened before anything is checked and ended whatever happens), the announcement of
 * an internal failure, and the error reply a failure becomes. Written once so both pipelines
 * observe and answer failures alike.
 */
import { handshakeJsonrpcCode } from '../../errors.ts'
import type { RequestWatch } from '../../observation/observer.ts'
import type { JsonObject, JsonRpcRequest } from '../../protocol/jsonrpc/message.ts'
import type { HeaderView } from '../../protocol/modern/header-view.ts'
import { failure, type ResponseReply, toTesseraError } from '../../reply.ts'
import type { Services } from '../services.ts'

/** Where a request came from, as its span records it. */
export interface RequestOrigin {
  /** The HTTP request's headers (the caller's trace context may be there); none on stdio. */
  readonly headers: HeaderView | undefined
  /** The handshake-era session it runs in: its errors then travel as that revision's codes. */
  readonly sessionId?: string
  /**
   * The exchange whose signal aborts when the client cancelled: a failure is then no server fault
   * and is not logged. Its signal is read only when the request fails.
   */
  readonly cancellable?: { readonly signal: AbortSignal }
}

/** Serves `request` with `serve` inside its watch; a failure becomes the error reply of its era. */
export async function observedRequest<R>(
  services: Pick<Services, 'observer'>,
  request: JsonRpcRequest,
  origin: RequestOrigin,
  serve: (watch: RequestWatch) => Promise<R>,
): Promise<R | ResponseReply> {
  const { observer } = services
  const watch = observer.request({
    method: request.method,
    requestId: request.id,
    params: request.params as JsonObject | undefined,
    headers: origin.headers,
    sessionId: origin.sessionId,
  })
  try {
    return await watch.run(() => serve(watch))
  } catch (error) {
    const failed = toTesseraError(error, (err) => {
      if (origin.cancellable?.signal.aborted !== true && observer.wants('failed'))
        observer.announce({ step: 'failed', method: request.method, error: err })
    })
    const inSession = origin.sessionId !== undefined
    watch.failed(inSession ? handshakeJsonrpcCode(failed.code) : failed.jsonrpcCode, failed.message)
    return failure(request.id, failed, { inSession })
  } finally {
    watch.end()
  }
}
