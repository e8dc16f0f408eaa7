/**
 * @module handshake-equivalence.test
 * One handler, two eras: the same tool is called by a 2026-07-28 client (MRTR: input_required,
 * then a retry with inputResponses and requestState) and by a 2025-11-25 client (real
 * `elicitation/create` requests on the POST stream). Answered the same way, both see the same
 * questions in the same order and get identical tool results.
 */
import { createServer, elicitForm, listRoots, type McpServer } from '@tessera/core'
import { listen, type RunningServer } from '@tessera/core/http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { HandshakeClient, type Json, resultOf } from '../helpers/handshake-client.ts'
import { capturingLogger, McpHttpClient } from '../helpers/mcp-http.ts'

/** How the user answers a question, whichever era carries it. */
type Answerer = (request: { method: string; params: Json }) => Json

const schema = (name: string, type = 'string') => ({
  type: 'object' as const,
  properties: { [name]: { type } },
  required: [name],
})

function build(): McpServer {
  const app = createServer({ name: 'it-equivalence', version: '1.0.0', logger: capturingLogger() })
  app.tool('order', { description: 'Two sequential asks, structured result' }, async ({ item }, ctx) => {
    const size = await ctx.ask(
      'size',
      elicitForm({ message: `Size of ${String(item)}?`, requestedSchema: schema('size', 'number') }),
    )
    if (size.action !== 'accept')
      return { content: [{ type: 'text', text: `no order (${size.action})` }], isError: true }
    const confirm = await ctx.ask(
      'confirm',
      elicitForm({
        message: `Order ${String(item)} of size ${size.content.size}?`,
        requestedSchema: schema('ok', 'boolean'),
      }),
    )
    if (confirm.action !== 'accept' || confirm.content.ok !== true) return `not confirmed (${confirm.action})`
    return {
      content: [{ type: 'text', text: `ordered ${String(item)} x${size.content.size}` }],
      structuredContent: { item, size: size.content.size, confirmed: true },
    }
  })
  app.tool(
    'profile',
    { description: 'Two questions in one round (askAll), then roots' },
    async (_args, ctx) => {
      const answers = await ctx.askAll({
        first: elicitForm({ message: 'First name?', requestedSchema: schema('first') }),
        last: elicitForm({ message: 'Last name?', requestedSchema: schema('last') }),
      })
      const roots = await ctx.ask('roots', listRoots())
      const name = [answers.first, answers.last].map((a) =>
        a.action === 'accept' ? String(Object.values(a.content)[0]) : '?',
      )
      return {
        content: [{ type: 'text', text: name.join(' ') }],
        structuredContent: { name, roots: roots.roots.length },
      }
    },
  )
  app.tool(
    'multiply',
    { description: 'A form typed by its zod schema', input: z.object({ n: z.number() }) },
    async ({ n }, ctx) => {
      const base = n * 10
      const answer = await ctx.ask(
        'mult',
        elicitForm({ message: 'Multiplier?', schema: z.object({ m: z.number() }) }),
      )
      return answer.action === 'accept'
        ? {
            content: [{ type: 'text', text: 'product' }],
            structuredContent: { product: base * answer.content.m },
          }
        : `refused (${answer.action})`
    },
  )
  return app
}

let running: RunningServer

beforeAll(async () => {
  running = await listen(build(), { port: 0 })
})

afterAll(async () => {
  await running?.close()
})

interface Outcome {
  result: Json
  asked: Array<{ method: string; params: Json }>
}

/** 2026-07-28: call, answer every input_required round, retry with the state, until complete. */
async function viaModern(name: string, args: Json, answer: Answerer): Promise<Outcome> {
  const client = new McpHttpClient(running.url)
  const asked: Outcome['asked'] = []
  let extra: Json = {}
  for (let round = 0; round < 10; round++) {
    const reply = await client.callTool(name, args, { extra })
    const result = reply.body?.result as Json | undefined
    if (result === undefined) throw new Error(`modern call failed: ${reply.raw}`)
    if (result.resultType !== 'input_required') return { result, asked }
    const requests = (result.inputRequests ?? {}) as Record<string, { method: string; params: Json }>
    const inputResponses: Json = {}
    for (const key of Object.keys(requests).sort()) {
      const request = requests[key]!
      asked.push({ method: request.method, params: request.params ?? {} })
      inputResponses[key] = answer({ method: request.method, params: request.params ?? {} })
    }
    extra = { inputResponses, requestState: result.requestState }
  }
  throw new Error('too many rounds')
}

/** 2025-11-25: one tools/call; the server's requests are answered on the way. */
async function viaHandshake(name: string, args: Json, answer: Answerer): Promise<Outcome> {
  const client = await HandshakeClient.connect(running.url)
  const asked: Outcome['asked'] = []
  const reply = await client.callTool(name, args, {
    onRequest: (request) => {
      const params = withoutInputKey({ ...((request.params as Json | undefined) ?? {}) })
      asked.push({ method: request.method as string, params })
      return { result: answer({ method: request.method as string, params }) }
    },
  })
  return { result: resultOf(reply), asked }
}

/** A session request names its input key in `_meta` for clients that answer by key; the question itself is the rest. */
function withoutInputKey(params: Json): Json {
  const meta = params._meta as Json | undefined
  if (meta === undefined) return params
  const { 'dev.tessera/inputKey': _key, ...rest } = meta
  if (Object.keys(rest).length === 0) {
    const { _meta: _drop, ...bare } = params
    return bare
  }
  return { ...params, _meta: rest }
}

/** The parts of a tool result both eras must agree on. */
const comparable = (result: Json) => ({
  content: result.content,
  structuredContent: result.structuredContent,
  isError: result.isError,
})

/** Questions of one round come in key order on 2026-07-28, request order in a session: compare as multisets. */
const questions = (asked: Outcome['asked']) => asked.map((q) => JSON.stringify(q)).sort()

const accept = (content: Json) => ({ action: 'accept', content })

const scenarios: Array<{ name: string; tool: string; args: Json; answer: Answerer }> = [
  {
    name: 'two sequential asks, both accepted',
    tool: 'order',
    args: { item: 'tea' },
    answer: ({ params }) =>
      String(params.message).startsWith('Size') ? accept({ size: 2 }) : accept({ ok: true }),
  },
  {
    name: 'the second ask declined',
    tool: 'order',
    args: { item: 'cake' },
    answer: ({ params }) =>
      String(params.message).startsWith('Size') ? accept({ size: 1 }) : { action: 'decline' },
  },
  {
    name: 'the first ask cancelled',
    tool: 'order',
    args: { item: 'soup' },
    answer: () => ({ action: 'cancel' }),
  },
  {
    name: 'two questions in one round, then roots',
    tool: 'profile',
    args: {},
    answer: ({ method, params }) => {
      if (method === 'roots/list') return { roots: [{ uri: 'file:///a' }, { uri: 'file:///b' }] }
      return String(params.message).startsWith('First')
        ? accept({ first: 'Ada' })
        : accept({ last: 'Lovelace' })
    },
  },
  {
    name: 'a form typed by its zod schema',
    tool: 'multiply',
    args: { n: 4 },
    answer: () => accept({ m: 3 }),
  },
  {
    name: 'a typed form declined',
    tool: 'multiply',
    args: { n: 4 },
    answer: () => ({ action: 'decline' }),
  },
]

describe('the same tool on both eras', () => {
  it.each(scenarios)('givesIdenticalResults$name', async ({ tool, args, answer }) => {
    const modern = await viaModern(tool, args, answer)
    const handshake = await viaHandshake(tool, args, answer)
    expect(modern.result.resultType).toBe('complete')
    expect(handshake.result).not.toHaveProperty('resultType')
    expect(comparable(handshake.result)).toEqual(comparable(modern.result))
    expect(questions(handshake.asked)).toEqual(questions(modern.asked))
    expect(modern.asked.length).toBeGreaterThan(0)
  })

  it('asksTheVerySameQuestionsInTheSameOrderAcrossRounds', async () => {
    const answer = scenarios[0]!.answer
    const modern = await viaModern('order', { item: 'tea' }, answer)
    const handshake = await viaHandshake('order', { item: 'tea' }, answer)
    expect(handshake.asked).toEqual(modern.asked)
    expect(handshake.asked.map((q) => q.params.message)).toEqual(['Size of tea?', 'Order tea of size 2?'])
    expect(comparable(handshake.result)).toEqual({
      content: [{ type: 'text', text: 'ordered tea x2' }],
      structuredContent: { item: 'tea', size: 2, confirmed: true },
      isError: undefined,
    })
  })
})
