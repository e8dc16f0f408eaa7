/**
 * @module observed-request
 * The frame every request is served in, in either era: its span (opened before anything is
 * checked, ended whatever happens), the log line of an internal failure, and the error reply a
 * failure becomes. Written once so both pipelines observe and answer failures alike.
 */
import { handshakeJsonrpcCode } from '../../errors.ts'
import type { JsonObject, JsonRpcRequest } from '../../protocol/jsonrpc/message.ts'
import type { HeaderView } from '../../protocol/modern/header-view.ts'
import { failure, type ResponseReply, toTesseraError } from '../../reply.ts'
import type { Services } from '../services.ts'
import type { RequestSpan } from '../telemetry/telemetry.ts'

/** Where a request came from, as its span records it. */
export interface RequestOrigin {
  /** The HTTP request's headers (the caller's trace context may be there); none on stdio. */
  readonly headers: HeaderView | undefined
  /** The handshake-era session it runs in: its errors then travel as that revision's codes. */
  readonly sessionId?: string
  /** Aborted when the client cancelled: its failure is then no server fault and is not logged. */
  readonly cancelled?: AbortSignal
}

/** Serves `request` with `serve` inside its span; a failure becomes the error reply of its era. */
export async function observedRequest<R>(
  services: Pick<Services, 'telemetry' | 'logger'>,
  request: JsonRpcRequest,
  origin: RequestOrigin,
  serve: (span: RequestSpan) => Promise<R>,
): Promise<R | ResponseReply> {
  const span = services.telemetry.request({
    method: request.method,
    requestId: request.id,
    params: request.params as JsonObject | undefined,
    headers: origin.headers,
    sessionId: origin.sessionId,
  })
  try {
    return await span.run(() => serve(span))
  } catch (error) {
    const failed = toTesseraError(error, (err) => {
      if (origin.cancelled?.aborted !== true)
        services.logger.error({ event: 'internal_error', method: request.method, err }, 'internal error')
    })
    const inSession = origin.sessionId !== undefined
    span.failed(inSession ? handshakeJsonrpcCode(failed.code) : failed.jsonrpcCode, failed.message)
    return failure(request.id, failed, { inSession })
  } finally {
    span.end(services.telemetry)
  }
}
