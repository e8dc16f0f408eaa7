/**
 * @module handle-request.test
 * One Streamable HTTP request through the fetch face, with no socket: the order of the checks
 * (Host and Origin first, then the HTTP method, Accept, Content-Type, authentication, the body
 * limit, the parse, and the era classification), the status, JSON-RPC code and message of each
 * refusal, 202 for notifications, 405 with `Allow` for other methods, and GET and DELETE served
 * only when the handshake era is on.
 */
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import {
  applyOverrides,
  envelope,
  errorOf,
  type Json,
  readReply,
  requestParts,
  resultOf,
} from '../../../../../test/helpers/mcp-http.ts'
import { silentLogger } from '../../../../../test/helpers/silent-logger.ts'
import { createServer } from '../../server/create-server.ts'
import { createFetchHandler, type FetchHandler } from './fetch.ts'
import { HttpAuthError, type HttpOptions } from './options.ts'

const URL_ = 'http://127.0.0.1/mcp'

function handlerFor(era: 'modern' | 'dual', options: HttpOptions = {}): FetchHandler {
  const app = createServer({
    name: 'handle-request',
    version: '1.0.0',
    logger: silentLogger,
    ...(era === 'modern' ? { handshake: false as const } : {}),
  })
  app.tool('echo', { description: 'Echo', input: z.object({ text: z.string() }) }, ({ text }) => text)
  return createFetchHandler(app, options)
}

/** A body that records whether anyone read it. */
function watchedBody(text: string) {
  const state = { pulled: false }
  const body = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        state.pulled = true
        controller.enqueue(new TextEncoder().encode(text))
        controller.close()
      },
    },
    { highWaterMark: 0 },
  )
  return { body, state }
}

const LIST = requestParts('tools/list', {}, { id: 1 })

/** Sends `method` with the headers a conforming client sends for tools/list, overridden by `headers`. */
async function send(
  handler: FetchHandler,
  options: { method?: string; headers?: Record<string, string | null>; body?: BodyInit | null } = {},
) {
  const method = options.method ?? 'POST'
  const body = options.body === undefined ? (method === 'POST' ? LIST.body : null) : options.body
  const init = {
    method,
    headers: applyOverrides(LIST.headers, options.headers),
    body,
    duplex: 'half',
  } as RequestInit
  return readReply(await handler(new Request(URL_, init)))
}

/** The refusal as the client reads it: status, and the whole JSON-RPC body. */
function refusal(status: number, code: number, message: string, id?: number | string) {
  const body: Json = { jsonrpc: '2.0', error: { code, message } }
  if (id !== undefined) body.id = id
  return { status, body }
}

const pick = (reply: { status: number; body: Json | undefined }) => ({
  status: reply.status,
  body: reply.body,
})

describe('the order of the checks', () => {
  it('refusesAForeignHostBeforeLookingAtTheMethod', async () => {
    const reply = await send(handlerFor('modern'), { method: 'PUT', headers: { host: 'evil.example' } })
    expect(pick(reply)).toEqual(
      refusal(403, -32600, "Forbidden: Host 'evil.example' is not allowed: add it to allowedHosts."),
    )
  })

  it('refusesAForeignOriginBeforeReadingTheBodyOrAuthenticating', async () => {
    const calls: string[] = []
    const handler = handlerFor('modern', { auth: { authenticate: () => void calls.push('auth') } })
    const { body, state } = watchedBody(LIST.body)
    const reply = await send(handler, { body, headers: { origin: 'https://evil.example' } })
    expect(pick(reply)).toEqual(
      refusal(
        403,
        -32600,
        "Forbidden: Origin 'https://evil.example' is not allowed: add its host to allowedHosts.",
      ),
    )
    expect(state.pulled).toBe(false)
    expect(calls).toEqual([])
  })

  it('refusesAnotherMethodWith405NamingPostOnlyWhenTheHandshakeEraIsOff', async () => {
    for (const method of ['PUT', 'HEAD', 'GET', 'DELETE']) {
      const response = await handlerFor('modern')(new Request(URL_, { method }))
      expect(response.status).toBe(405)
      expect(response.headers.get('allow')).toBe('POST')
      if (method !== 'HEAD') {
        expect((await readReply(response)).body).toEqual(
          refusal(405, -32600, 'Method not allowed: use POST.').body,
        )
      }
    }
  })

  it('refusesAnotherMethodWith405NamingGetPostAndDeleteWhenTheHandshakeEraIsOn', async () => {
    for (const method of ['PUT', 'PATCH', 'HEAD']) {
      const response = await handlerFor('dual')(new Request(URL_, { method }))
      expect(response.status).toBe(405)
      expect(response.headers.get('allow')).toBe('GET, POST, DELETE')
    }
    const reply = await send(handlerFor('dual'), { method: 'PUT', headers: { accept: null } })
    expect(pick(reply)).toEqual(refusal(405, -32600, 'Method not allowed: use GET, POST, DELETE.'))
  })

  it('refusesABadAcceptWith406BeforeLookingAtContentType', async () => {
    const handler = handlerFor('modern')
    for (const accept of ['application/json', 'text/event-stream', null]) {
      const reply = await send(handler, { headers: { accept, 'content-type': 'text/plain' } })
      expect(pick(reply)).toEqual(
        refusal(406, -32600, 'Not acceptable: Accept must list application/json and text/event-stream.'),
      )
    }
  })

  it('acceptsWildcardsAndParametersInAccept', async () => {
    const handler = handlerFor('modern')
    for (const accept of ['*/*', 'application/*, text/*', 'application/json;q=0.9, text/event-stream;q=1']) {
      expect((await send(handler, { headers: { accept } })).status).toBe(200)
    }
  })

  it('refusesABadContentTypeWith415BeforeAuthenticating', async () => {
    const calls: string[] = []
    const handler = handlerFor('modern', { auth: { authenticate: () => void calls.push('auth') } })
    for (const type of ['text/plain', 'application/jsonx', null]) {
      const reply = await send(handler, { headers: { 'content-type': type } })
      expect(pick(reply)).toEqual(
        refusal(415, -32600, 'Unsupported media type: Content-Type must be application/json.'),
      )
    }
    expect(calls).toEqual([])
    const charset = await send(handler, { headers: { 'content-type': 'Application/JSON; charset=utf-8' } })
    expect(charset.status).toBe(200)
    expect(calls).toEqual(['auth'])
  })

  it('refusesAnUnauthenticatedRequestWith401AndItsChallengeBeforeReadingTheBody', async () => {
    const handler = handlerFor('modern', {
      auth: {
        authenticate: () => {
          throw new HttpAuthError(401, 'Token expired.', 'Bearer error="invalid_token"')
        },
      },
    })
    const { body, state } = watchedBody(LIST.body)
    const reply = await send(handler, { body })
    expect(pick(reply)).toEqual(refusal(401, -32600, 'Token expired.'))
    expect(reply.headers.get('www-authenticate')).toBe('Bearer error="invalid_token"')
    expect(state.pulled).toBe(false)
  })

  it('refusesAnInsufficientScopeWith403AndNoChallenge', async () => {
    const handler = handlerFor('modern', {
      auth: {
        authenticate: async () => {
          throw new HttpAuthError(403, 'Insufficient scope.')
        },
      },
    })
    const reply = await send(handler)
    expect(pick(reply)).toEqual(refusal(403, -32600, 'Insufficient scope.'))
    expect(reply.headers.get('www-authenticate')).toBeNull()
  })

  it('answers401WithoutTheMessageOfAnAuthenticatorThatFailed', async () => {
    const handler = handlerFor('modern', {
      auth: {
        authenticate: () => {
          throw new Error('connection to the token store refused')
        },
      },
    })
    expect(pick(await send(handler))).toEqual(refusal(401, -32600, 'Unauthorized.'))
  })

  it('refusesAnOversizeBodyWith413BeforeParsingIt', async () => {
    const handler = handlerFor('modern', { maxBodyBytes: 16 })
    const reply = await send(handler, { body: 'this is not JSON, and too long anyway' })
    expect(pick(reply)).toEqual(
      refusal(413, -32600, 'Payload too large: the request body exceeds the limit.'),
    )
  })

  it('refusesMalformedJsonWith32700BeforeAskingForASession', async () => {
    const reply = await send(handlerFor('dual'), {
      body: '{"jsonrpc":"2.0",',
      headers: { 'mcp-protocol-version': null },
    })
    expect(reply.status).toBe(400)
    expect(errorOf(reply).code).toBe(-32700)
  })
})

describe('era classification', () => {
  const notification = JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })
  const bare = (id: number, method = 'tools/list', params: Json = {}) =>
    JSON.stringify({ jsonrpc: '2.0', id, method, params })

  it('acceptsANotificationWith202AndAnEmptyBodyInEitherEra', async () => {
    const withMeta = JSON.stringify({
      jsonrpc: '2.0',
      method: 'notifications/x',
      params: { _meta: envelope() },
    })
    for (const handler of [handlerFor('modern'), handlerFor('dual')]) {
      for (const body of [notification, withMeta]) {
        const reply = await send(handler, { body })
        expect(reply.status).toBe(202)
        expect(reply.raw).toBe('')
      }
    }
    // Without any version header or session, a dual-era server still accepts it.
    const sessionless = await send(handlerFor('dual'), {
      body: notification,
      headers: { 'mcp-protocol-version': null, 'mcp-method': null },
    })
    expect(sessionless.status).toBe(202)
  })

  it('refusesARequestWithoutMetaUnderA2026VersionHeaderWith32602InEitherEra', async () => {
    for (const handler of [handlerFor('modern'), handlerFor('dual')]) {
      const reply = await send(handler, { body: bare(4) })
      expect(pick(reply)).toEqual(refusal(400, -32602, 'Invalid params: _meta is required.', 4))
    }
  })

  it('refusesARequestThatNamesNoEraOnADualServerAsNeedingASession', async () => {
    const reply = await send(handlerFor('dual'), {
      body: bare(5),
      headers: { 'mcp-protocol-version': null, 'mcp-method': null },
    })
    expect(pick(reply)).toEqual(refusal(400, -32600, 'Bad request: Mcp-Session-Id header is required.', 5))
  })

  it('refusesA2025VersionHeaderOnAModernOnlyServerWith32022', async () => {
    const reply = await send(handlerFor('modern'), {
      body: bare(6),
      headers: { 'mcp-protocol-version': '2025-11-25' },
    })
    expect(reply.status).toBe(400)
    expect(reply.body).toEqual({
      jsonrpc: '2.0',
      id: 6,
      error: {
        code: -32022,
        message: 'Unsupported protocol version: this server speaks 2026-07-28 only.',
        data: { supported: ['2026-07-28'], requested: '2025-11-25' },
      },
    })
  })

  it('refusesInitializeOnAModernOnlyServerNamingTheVersionItAskedFor', async () => {
    const params = {
      protocolVersion: '2025-06-18',
      capabilities: {},
      clientInfo: { name: 'c', version: '1' },
    }
    const reply = await send(handlerFor('modern'), {
      body: bare(7, 'initialize', params),
      headers: { 'mcp-protocol-version': null, 'mcp-method': null },
    })
    expect(reply.status).toBe(400)
    expect(reply.body?.error).toMatchObject({
      code: -32022,
      data: { supported: ['2026-07-28'], requested: '2025-06-18' },
    })
    expect(reply.headers.get('mcp-session-id')).toBeNull()
  })

  it('refusesAResponseBodyOutsideASession', async () => {
    const body = JSON.stringify({ jsonrpc: '2.0', id: 's-1', result: {} })
    expect(pick(await send(handlerFor('modern'), { body }))).toEqual(
      refusal(400, -32600, 'Invalid request: there is no request to answer here.'),
    )
    expect(pick(await send(handlerFor('dual'), { body }))).toEqual(
      refusal(400, -32600, 'Bad request: Mcp-Session-Id header is required.'),
    )
  })

  it('servesGetAndDeleteOnlyInTheHandshakeEraWhereTheyNeedASession', async () => {
    for (const method of ['GET', 'DELETE']) {
      const headers = { accept: 'text/event-stream' }
      const modern = await handlerFor('modern')(new Request(URL_, { method, headers }))
      expect(modern.status).toBe(405)
      const dual = await readReply(await handlerFor('dual')(new Request(URL_, { method, headers })))
      expect(pick(dual)).toEqual(refusal(400, -32600, 'Bad request: Mcp-Session-Id header is required.'))
    }
  })

  it('authenticatesGetAndDeleteBeforeLookingForTheSession', async () => {
    const handler = handlerFor('dual', {
      auth: {
        authenticate: () => {
          throw new HttpAuthError(401, 'Sign in first.', 'Bearer')
        },
      },
    })
    for (const method of ['GET', 'DELETE']) {
      const reply = await readReply(
        await handler(new Request(URL_, { method, headers: { 'mcp-session-id': 'x' } })),
      )
      expect(pick(reply)).toEqual(refusal(401, -32600, 'Sign in first.'))
    }
  })

  it('servesA2026RequestCarryingASessionIdStatelessly', async () => {
    const reply = await send(handlerFor('dual'), { headers: { 'mcp-session-id': 'stale' } })
    expect(reply.status).toBe(200)
    expect(resultOf(reply).resultType).toBe('complete')
    expect(reply.headers.get('mcp-session-id')).toBeNull()
  })
})
