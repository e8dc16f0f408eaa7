import { createHash } from 'node:crypto'
import { beforeAll, describe, expect, it } from 'vitest'
import {
  type AuthInfo,
  type BindingInput,
  digestArguments,
  originatingRequestBinder,
  unboundBinder,
} from './binding.ts'
import { canonicalJson } from './canonical-json.ts'
import { createRequestStateCodec } from './codec.ts'

const AUDIENCE = 'https://ops.example/mcp'
const alice: AuthInfo = {
  issuer: 'https://idp.example',
  clientId: 'ops-app',
  subject: 'alice',
  token: 'tok-1',
}
const bind = originatingRequestBinder()

function call(overrides: Partial<BindingInput> = {}): BindingInput {
  return {
    audience: AUDIENCE,
    method: 'tools/call',
    params: { name: 'rollback', arguments: { service: 'api', to: { release: 41, tags: ['a', 'b'] } } },
    auth: alice,
    ...overrides,
  }
}

function bindingOf(input: BindingInput, binder = bind): string {
  const result = binder(input)
  if (!result.ok) throw new Error(`unexpected ${result.reason}`)
  return result.binding
}

function withArgs(args: unknown): BindingInput {
  return call({ params: { name: 'rollback', arguments: args } as Record<string, unknown> })
}

describe('originatingRequestBinder', () => {
  it('producesAFixedLengthHashNotTheInputs', () => {
    const binding = bindingOf(call())
    expect(binding).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(bindingOf(call())).toBe(binding)
  })

  it('bindsReorderedArgumentKeysAlike', () => {
    expect(bindingOf(withArgs({ to: { tags: ['a', 'b'], release: 41.0 }, service: 'api' }))).toBe(
      bindingOf(call()),
    )
  })

  it('ignoresMetaRequestStateInputResponsesAndUnknownParams', () => {
    const params = {
      ...call().params,
      _meta: { progressToken: 7, 'io.modelcontextprotocol/clientInfo': { name: 'x' } },
      requestState: 'tss1.k.abc',
      inputResponses: { confirm: { action: 'accept' } },
      somethingNew: true,
    }
    expect(bindingOf(call({ params }))).toBe(bindingOf(call()))
  })

  it('survivesATokenRefreshOfTheSamePrincipal', () => {
    const refreshed = { ...alice, token: 'tok-2', claims: { exp: 2, jti: 'new' } }
    expect(bindingOf(call({ auth: refreshed }))).toBe(bindingOf(call()))
  })

  it('treatsAbsentArgumentsLikeAnEmptyObject', () => {
    const absent = call({ params: { name: 'rollback' } })
    expect(bindingOf(absent)).toBe(bindingOf(withArgs({})))
    expect(bindingOf(absent)).not.toBe(bindingOf(withArgs([])))
    expect(bindingOf(absent)).not.toBe(bindingOf(withArgs(null)))
  })

  it('bindsAnotherToolArgumentsOrNestedArgumentElsewhere', () => {
    const base = bindingOf(call())
    const others = [
      call({ params: { name: 'deploy', arguments: call().params!['arguments'] } }),
      withArgs({ service: 'web', to: { release: 41, tags: ['a', 'b'] } }),
      withArgs({ service: 'api', to: { release: 42, tags: ['a', 'b'] } }),
      withArgs({ service: 'api', to: { release: 41, tags: ['b', 'a'] } }),
      withArgs({ service: 'api', to: { release: '41', tags: ['a', 'b'] } }),
      withArgs({ service: 'api' }),
    ]
    for (const other of others) expect(bindingOf(other), JSON.stringify(other.params)).not.toBe(base)
  })

  it('keepsObjectsWithNumericKeysApartFromArrays', () => {
    expect(bindingOf(withArgs({ list: { '1': 'one', '0': 'zero' } }))).not.toBe(
      bindingOf(withArgs({ list: ['zero', 'one'] })),
    )
    expect(bindingOf(withArgs({ list: {} }))).not.toBe(bindingOf(withArgs({ list: [] })))
  })

  it('bindsAnotherPrincipalElsewhere', () => {
    const base = bindingOf(call())
    const others: (AuthInfo | undefined)[] = [
      { ...alice, subject: 'bob' },
      { ...alice, clientId: 'other-app' },
      { ...alice, issuer: 'https://evil.example' },
      { clientId: alice.clientId, subject: 'alice' },
      { issuer: alice.issuer, subject: 'alice' },
      undefined,
    ]
    for (const auth of others) expect(bindingOf(call({ auth })), JSON.stringify(auth)).not.toBe(base)
  })

  it('encodesPrincipalPartsUnambiguously', () => {
    const a = bindingOf(call({ auth: { issuer: 'x', clientId: 'y|z', subject: 's' } }))
    const b = bindingOf(call({ auth: { issuer: 'x|y', clientId: 'z', subject: 's' } }))
    const c = bindingOf(call({ auth: { issuer: 'x', clientId: '', subject: 's' } }))
    const d = bindingOf(call({ auth: { issuer: 'x', subject: 's' } }))
    expect(new Set([a, b, c, d]).size).toBe(4)
  })

  it('bindsAnotherAudienceElsewhere', () => {
    expect(bindingOf(call({ audience: 'https://billing.example/mcp' }))).not.toBe(bindingOf(call()))
  })

  it('bindsTheMethodAndTheResourceUri', () => {
    const name = 'rollback'
    const prompt = bindingOf(call({ method: 'prompts/get', params: { name } }))
    expect(prompt).not.toBe(bindingOf(call({ params: { name } })))
    const read = (uri: string) => bindingOf(call({ method: 'resources/read', params: { uri } }))
    expect(read('file:///a')).toBe(read('file:///a'))
    expect(read('file:///a')).not.toBe(read('file:///b'))
  })

  it('bindsOnlyTheAllowlistedParamsOfEachMethod', () => {
    const read = (params: Record<string, unknown>) => bindingOf(call({ method: 'resources/read', params }))
    expect(read({ uri: 'file:///a', arguments: { x: 1 }, name: 'n' })).toBe(read({ uri: 'file:///a' }))
    const list = (params: Record<string, unknown> | undefined) =>
      bindingOf(call({ method: 'tools/list', params }))
    expect(list({ cursor: 'c', name: 'n' })).toBe(list(undefined))
  })

  it('failsClosedWithoutAStablePrincipal', () => {
    for (const auth of [{}, { issuer: 'i', clientId: 'c' }, { ...alice, subject: '' }, { token: 't' }]) {
      expect(bind(call({ auth })), JSON.stringify(auth)).toEqual({ ok: false, reason: 'no-stable-principal' })
    }
  })

  it('usesACustomPrincipalExtractorAndFailsClosedWhenItFindsNone', () => {
    const byEmail = originatingRequestBinder({
      principal: (auth) => (typeof auth.claims?.['email'] === 'string' ? auth.claims['email'] : undefined),
    })
    const user = (email: unknown): AuthInfo => ({ issuer: 'i', clientId: 'c', claims: { email } })
    const one = bindingOf(call({ auth: user('a@example.com') }), byEmail)
    expect(bindingOf(call({ auth: { ...user('a@example.com'), token: 'new' } }), byEmail)).toBe(one)
    expect(bindingOf(call({ auth: user('b@example.com') }), byEmail)).not.toBe(one)
    expect(byEmail(call({ auth: user(undefined) }))).toEqual({ ok: false, reason: 'no-stable-principal' })
    expect(originatingRequestBinder({ principal: () => '' })(call())).toEqual({
      ok: false,
      reason: 'no-stable-principal',
    })
    expect(bindingOf(call({ auth: undefined }), byEmail)).toBe(bindingOf(call({ auth: undefined })))
  })

  it('isTheDigestOfItsPartsWithTheArgumentsDigestedWhetherRememberedOrNot', () => {
    const sha = (text: string) => createHash('sha256').update(text).digest('base64url')
    const expected = (args: unknown, subject = 'alice') =>
      sha(
        JSON.stringify([
          'tessera/request-state-binding/v1',
          'request',
          AUDIENCE,
          ['oauth', alice.issuer, alice.clientId, subject],
          'tools/call',
          'rollback',
          sha(canonicalJson(args)),
        ]),
      )
    const args = { service: 'api', note: 'lone \ud800 and "quoted" \\ text' }
    // The first round computes it, a later one finds it remembered; both equal the digest of the
    // parts. Arguments longer than what is remembered are digested on every round.
    for (let round = 0; round < 2; round++) {
      expect(bindingOf(withArgs(args))).toBe(expected(args))
      expect(bindingOf(call({ auth: { ...alice, subject: 'bob' } }))).toBe(
        expected(call().params?.arguments, 'bob'),
      )
      const long = { text: 'x'.repeat(5000) }
      expect(bindingOf(withArgs(long))).toBe(expected(long))
    }
    const unbound = sha(JSON.stringify(['tessera/request-state-binding/v1', 'unbound', AUDIENCE]))
    expect(bindingOf(call(), unboundBinder)).toBe(unbound)
    expect(bindingOf(call(), unboundBinder)).toBe(unbound)
  })

  it('throwsOnArgumentsTooDeepToCanonicalise', () => {
    let deep: unknown = 1
    for (let i = 0; i < 100; i++) deep = [deep]
    expect(() => bind(withArgs(deep))).toThrow(RangeError)
  })
})

describe('unboundBinder', () => {
  it('bindsOnlyTheAudience', () => {
    const unbound = (input: BindingInput) => bindingOf(input, unboundBinder)
    expect(unbound(call())).toBe(unbound(call({ auth: undefined, method: 'prompts/get', params: {} })))
    expect(unbound(call())).not.toBe(unbound(call({ audience: 'https://billing.example/mcp' })))
    expect(unbound(call())).not.toBe(bindingOf(call()))
  })
})

describe('digestArguments', () => {
  it('hashesTheCanonicalJson', () => {
    const value = { b: [1, 2], a: 'é' }
    const expected = createHash('sha256').update(canonicalJson(value)).digest('base64url')
    expect(digestArguments(value)).toBe(expected)
    expect(digestArguments({ a: 'é', b: [1.0, 2] })).toBe(expected)
  })
})

describe('binding through the codec', () => {
  const codec = createRequestStateCodec({ keys: [{ id: 'k1', secret: 'k'.repeat(32) }] })
  let token: string
  beforeAll(async () => {
    token = await codec.mint({ step: 1 }, bindingOf(call()))
  })

  it('opensARetryOfTheSameCall', async () => {
    const retry = call({
      params: {
        arguments: { to: { tags: ['a', 'b'], release: 41 }, service: 'api' },
        name: 'rollback',
        requestState: token,
        inputResponses: { ok: { action: 'accept' } },
        _meta: { progressToken: 1 },
      },
      auth: { ...alice, token: 'refreshed' },
    })
    expect(await codec.open(token, bindingOf(retry))).toMatchObject({ ok: true, payload: { step: 1 } })
  })

  it('rejectsAStateEchoedOnAnotherCallPrincipalOrServer', async () => {
    const others = [
      call({ params: { name: 'deploy', arguments: call().params!['arguments'] } }),
      withArgs({ service: 'web', to: { release: 41, tags: ['a', 'b'] } }),
      withArgs({ service: 'api', to: { release: 41, tags: ['a', 'c'] } }),
      call({ auth: { ...alice, subject: 'mallory' } }),
      call({ auth: undefined }),
      call({ audience: 'https://billing.example/mcp' }),
    ]
    for (const other of others) {
      expect(await codec.open(token, bindingOf(other)), JSON.stringify(other)).toEqual({
        ok: false,
        reason: 'binding',
      })
    }
  })

  it('rejectsAnObjectWithNumericKeysAfterAnArray', async () => {
    const asList = await codec.mint(1, bindingOf(withArgs(['zero', 'one'])))
    expect(await codec.open(asList, bindingOf(withArgs({ '1': 'one', '0': 'zero' })))).toEqual({
      ok: false,
      reason: 'binding',
    })
  })

  it('rejectsAPrincipalStateOpenedAnonymously', async () => {
    const anonymous = await codec.mint(1, bindingOf(call({ auth: undefined })))
    expect(await codec.open(anonymous, bindingOf(call()))).toEqual({ ok: false, reason: 'binding' })
  })
})
