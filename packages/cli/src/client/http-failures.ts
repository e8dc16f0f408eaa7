/**
 * @module http-failures
 * What went wrong in one HTTP exchange, as a TransportError whose message is one line saying
 * what to do: a connection that could not be made, a stream or body the server ended before its
 * answer, a refusal of the caller (401 or 403: the server's JSON-RPC message and the `error` and
 * `scope` of its `WWW-Authenticate` challenge quoted), and an answer that is no JSON-RPC.
 */
import { wireMappings } from '@tessera/core/protocol'
import { challengeOf, parseChallenges } from './challenge.ts'
import { isObject, type JsonObject, TransportError } from './json-rpc.ts'

const FORBIDDEN = wireMappings.TESSERA_FORBIDDEN.http
const NOT_FOUND = wireMappings.TESSERA_NOT_FOUND.http
/** The statuses that refuse the caller rather than the request. */
export const DENIED_STATUSES: ReadonlySet<number> = new Set([
  wireMappings.TESSERA_UNAUTHORIZED.http,
  FORBIDDEN,
])

/** How much of a server's text a line quotes, and how much `--verbose` shows. */
const QUOTE_LIMIT = 200
const DETAIL_LIMIT = 4_000

/** Failures to connect, by the code Node gives them. */
const CONNECT_FAILURES: Record<string, (url: string, host: string, code: string) => string> = {
  ECONNREFUSED: (url) => `nothing answers at ${url} (connection refused): is the server running?`,
  ENOTFOUND: (_url, host, code) => `no host is named ${host} (${code}): check the URL.`,
  EAI_AGAIN: (_url, host, code) => `cannot look up ${host} (${code}): check the URL and the network.`,
  ETIMEDOUT: (_url, host, code) => `${host} did not accept a connection in time (${code}): is it reachable?`,
  UND_ERR_CONNECT_TIMEOUT: (_url, host) => `${host} did not accept a connection in time: is it reachable?`,
  EHOSTUNREACH: (_url, host, code) => `cannot reach ${host} (${code}): check the network.`,
  ENETUNREACH: (_url, host, code) => `cannot reach ${host} (${code}): check the network.`,
  DEPTH_ZERO_SELF_SIGNED_CERT: untrusted,
  SELF_SIGNED_CERT_IN_CHAIN: untrusted,
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: untrusted,
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: untrusted,
}

function untrusted(_url: string, host: string, code: string): string {
  return `the TLS certificate of ${host} is not trusted (${code}): give its CA with NODE_EXTRA_CA_CERTS=<ca.pem>.`
}

/** Codes of a connection that was open and then dropped by the other side. */
const DROPPED = new Set(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED'])

/** `fetch` itself failed: no connection, or one the server dropped before its response began. */
export function fetchFailure(url: string, method: string, error: unknown): TransportError {
  const code = codeOf(error)
  if (code !== undefined && DROPPED.has(code)) return closedBeforeAnswer(url, method, error)
  const say = code === undefined ? undefined : CONNECT_FAILURES[code]
  const line =
    say?.(url, hostOf(url), code!) ??
    `cannot reach ${url} (${reasonOf(error)}): check the URL and that the server is running.`
  return new TransportError(line, { reason: 'unreachable', cause: error })
}

/** The stream (or body) ended, or broke, before the answer to `method` was in it. */
export function closedBeforeAnswer(url: string, method: string, cause?: unknown): TransportError {
  const why = cause === undefined ? '' : ` (${reasonOf(cause)})`
  // A call the server cut may still have done its work: calling again blindly could do it twice.
  const next =
    method === 'tools/call'
      ? "the call may have run; check the server's log before calling again."
      : "check the server's log."
  return new TransportError(
    `the server at ${url} closed the stream before answering ${method}${why}: ${next}`,
    {
      reason: 'closed',
      cause,
    },
  )
}

/**
 * A 401 or 403: which token to pass. `authorization` is the header this client sent, if any; its
 * credential is never repeated, even when the server echoes it.
 */
export function deniedAccess(
  url: string,
  response: Response,
  body: string,
  authorization: string | undefined,
): TransportError {
  const header = response.headers.get('www-authenticate') ?? ''
  const challenges = parseChallenges(header)
  // The Bearer challenge says what a bearer token lacks; a server of another scheme, its own.
  const chosen = challengeOf(challenges, 'Bearer') ?? challenges[0]
  const challenge: Record<string, string | undefined> = chosen?.params ?? {}
  const credential = authorization?.slice(authorization.indexOf(' ') + 1)
  const said = messageOf(body) ?? challenge.error_description
  const details = [
    challenge.error && `error ${quote(challenge.error)}`,
    challenge.scope && `scope ${quote(challenge.scope)}`,
  ].filter(Boolean)
  const why = `HTTP ${response.status}${said === undefined ? '' : ` ${quote(redact(said, credential))}`}${
    details.length > 0 ? ` (${details.join(', ')})` : ''
  }`
  const scheme = challenges[0]?.scheme
  const flag = `-H 'Authorization: ${scheme === undefined || /^dpop$/i.test(scheme) ? 'Bearer' : scheme} <token>'`
  const line =
    authorization === undefined
      ? `${url} requires a token: ${why}; pass ${flag}.`
      : response.status === FORBIDDEN
        ? `${url} refused the token given for this request: ${why}; pass ${flag} with a token granted ${
            challenge.scope === undefined ? 'what this request needs' : quote(challenge.scope)
          }.`
        : `${url} refused the token given: ${why}; pass a valid one with ${flag}.`
  const detail = redact(
    `HTTP ${response.status}\nwww-authenticate: ${header}\n${body.slice(0, DETAIL_LIMIT)}`,
    credential,
  )
  return new TransportError(line, { reason: 'denied', detail })
}

/**
 * A 404 whose JSON-RPC error answers no request id: the path serves nothing, as opposed to a
 * method the endpoint does not know. Undefined for any other answer.
 */
export function notServedHere(
  url: string,
  response: Response,
  message: JsonObject,
): TransportError | undefined {
  if (response.status !== NOT_FOUND || (message.id !== undefined && message.id !== null)) return undefined
  const said =
    isObject(message.error) && typeof message.error.message === 'string' ? message.error.message : ''
  return new TransportError(
    `nothing is served at ${url} (HTTP ${response.status}${said === '' ? '' : ` ${quote(said)}`}): check the path of the URL (a Tessera server serves /mcp).`,
  )
}

/** An answer that holds no JSON-RPC response. */
export function notJsonRpc(url: string, response: Response, body: string): TransportError {
  const type = response.headers.get('content-type')?.split(';')[0]?.trim()
  const what = body.trim() === '' ? 'an empty body' : `a body of ${type || 'unknown type'}`
  return new TransportError(
    `${url} answered HTTP ${response.status} with ${what} and no JSON-RPC response: is it the server's MCP endpoint?`,
    { detail: body.slice(0, DETAIL_LIMIT) },
  )
}

/** The message of the JSON-RPC error a body holds, if it holds one. */
function messageOf(body: string): string | undefined {
  try {
    const value: unknown = JSON.parse(body)
    const error = isObject(value) ? value.error : undefined
    return isObject(error) && typeof error.message === 'string' ? error.message : undefined
  } catch {
    return undefined
  }
}

function quote(text: string): string {
  return JSON.stringify(text.length > QUOTE_LIMIT ? `${text.slice(0, QUOTE_LIMIT)}…` : text)
}

function redact(text: string, credential: string | undefined): string {
  return credential === undefined || credential.length < 8 ? text : text.replaceAll(credential, '<token>')
}

function hostOf(url: string): string {
  try {
    return new URL(url).host
  } catch {
    return url
  }
}

/** The first error code along the chain of causes (and inside an AggregateError). */
function codeOf(error: unknown): string | undefined {
  for (let current = error, depth = 0; isObject(current) && depth < 8; depth++) {
    if (typeof current.code === 'string') return current.code
    const inner = Array.isArray(current.errors) ? current.errors[0] : undefined
    current = current.cause ?? inner
  }
  return undefined
}

/** What the innermost cause says: its code when Node names one, else its message. */
function reasonOf(error: unknown): string {
  let current = error
  for (let depth = 0; current instanceof Error && current.cause !== undefined && depth < 8; depth++)
    current = current.cause
  if (!(current instanceof Error)) return String(current)
  const code = (current as { code?: unknown }).code
  return typeof code === 'string' && !code.startsWith('UND_ERR') ? code : current.message
}
