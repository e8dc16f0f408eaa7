/**
 * @module auth-http
 * What HTTP adds to authentication: the authenticator's view of a request, its refusals (400,
 * 401, 403 with their `WWW-Authenticate`), the step-up challenge of a call that lacks scopes, and
 * the public documents it serves (Protected Resource Metadata).
 */
import { SuccessStatus } from '../../errors.ts'
import { failure, type ResponseReply } from '../../reply.ts'
import type { AuthInfo } from '../../security/request-state/binding.ts'
import type { HttpInput } from './http-input.ts'
import { HttpAuthError, type ResolvedHttpOptions } from './options.ts'
import { type ReplyWriter, writeFault, writeReply } from './reply-writer.ts'

/** The caller of `input`, or false once a refusal was written. */
export async function authenticateRequest(
  options: ResolvedHttpOptions,
  input: HttpInput,
  writer: ReplyWriter,
): Promise<AuthInfo | undefined | false> {
  if (options.auth === undefined) return undefined
  try {
    return await options.auth.authenticate({
      method: input.method,
      target: input.target,
      headers: input.headers,
    })
  } catch (error) {
    if (error instanceof HttpAuthError) {
      const headers: Record<string, string> = { ...error.headers }
      if (error.wwwAuthenticate) headers['www-authenticate'] = error.wwwAuthenticate
      writeReply(writer, failure(undefined, error), headers)
    } else {
      writeFault(writer, 'TESSERA_UNAUTHORIZED', 'Unauthorized.')
    }
    return false
  }
}

/**
 * The headers of a refusal: when to retry one over a rate limit, the authenticator's challenge of
 * one for missing scopes.
 */
export function refusalHeaders(
  options: ResolvedHttpOptions,
  reply: ResponseReply,
  auth: AuthInfo | undefined,
): Record<string, string> | undefined {
  if (reply.retryAfterSeconds !== undefined) return { 'retry-after': String(reply.retryAfterSeconds) }
  if (reply.requiredScopes === undefined || options.auth?.insufficientScope === undefined) return undefined
  return { 'www-authenticate': options.auth.insufficientScope(reply.requiredScopes, auth) }
}

/**
 * Answers a request for one of the authenticator's documents; false when `path` names none.
 * The documents are public: readable from any origin, without a token.
 */
export function serveDocument(
  options: ResolvedHttpOptions,
  path: string,
  method: string,
  writer: ReplyWriter,
): boolean {
  const document = options.documents.get(path)
  if (document === undefined) return false
  if (method !== 'GET' && method !== 'HEAD') {
    writeFault(writer, 'TESSERA_METHOD_NOT_ALLOWED', 'Method not allowed: use GET.', {
      headers: { allow: 'GET' },
    })
    return true
  }
  writer.json(SuccessStatus.ok, document, {
    'cache-control': 'public, max-age=300',
    'access-control-allow-origin': '*',
  })
  return true
}
