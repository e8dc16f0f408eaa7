/**
 * @module asking.test
 * Asking the client, through the fetch face: one API with explicit keys, answers found by key
 * (so a redeploy that reorders a handler's asks still reads each answer as its own), content
 * typed and parsed by the zod schema the form was built from, and a handler that swallows its own
 * ask reported by name instead of answering nonsense.
 */
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { fetchClient } from '../../../../../test/helpers/fetch-client.ts'
import { capturingLogger, type Json, resultOf, textOf } from '../../../../../test/helpers/mcp-http.ts'
import { generateStateKey } from '../../security/request-state/key-ring.ts'
import { createServer } from '../create-server.ts'
import { elicitForm, listRoots } from './input-requests.ts'

/** Both versions of the server of a redeploy share the key. */
const KEY = generateStateKey('k')
const colour = elicitForm({ message: 'Colour?', schema: z.object({ colour: z.enum(['red', 'blue']) }) })
const size = elicitForm({ message: 'Size?', schema: z.object({ size: z.coerce.number().int() }) })

function serve(order: 'colour-first' | 'size-first' = 'colour-first') {
  const logger = capturingLogger()
  const app = createServer({ name: 'asking', version: '1.0.0', logger, requestState: { keys: [KEY] } })
  app.tool('order', { description: 'Asks twice' }, async (_a, ctx) => {
    // Object literals evaluate in order: the two versions of the handler ask in opposite orders.
    const { c, s } =
      order === 'colour-first'
        ? { c: await ctx.ask('colour', colour), s: await ctx.ask('size', size) }
        : { s: await ctx.ask('size', size), c: await ctx.ask('colour', colour) }
    if (c.action !== 'accept' || s.action !== 'accept') return 'no order'
    // Typed from the schemas: `colour` is 'red' | 'blue', `size` a number (coerced from text).
    return `${c.content.colour} x${s.content.size + 0}`
  })
  app.tool('both', { description: 'Asks twice at once' }, async (_a, ctx) => {
    const { c, r } = await ctx.askAll({ c: colour, r: listRoots() })
    return `${c.action === 'accept' ? c.content.colour : c.action} in ${r.roots.length} roots`
  })
  app.tool('swallows', { description: 'Catches its own ask' }, async (_a, ctx) => {
    try {
      await ctx.ask('colour', colour)
    } catch (error) {
      return `caught: ${error}`
    }
    return 'answered'
  })
  return { client: fetchClient(app), logger }
}

const accept = (content: Json) => ({ action: 'accept', content })

async function answer(
  client: ReturnType<typeof serve>['client'],
  tool: string,
  state: unknown,
  responses: Json,
) {
  return resultOf(
    await client.callTool(tool, {}, { extra: { requestState: state, inputResponses: responses } }),
  )
}

describe('ctx.ask and ctx.askAll', () => {
  it('asksUnderTheKeysTheHandlerGave', async () => {
    const { client } = serve()
    const first = resultOf(await client.callTool('order'))
    expect(first.resultType).toBe('input_required')
    expect(Object.keys(first.inputRequests as Json)).toEqual(['colour'])
    const second = await answer(client, 'order', first.requestState, { colour: accept({ colour: 'red' }) })
    expect(Object.keys(second.inputRequests as Json)).toEqual(['size'])
    const done = await answer(client, 'order', second.requestState, { size: accept({ size: '3' }) })
    expect(textOf(done)).toBe('red x3')
  })

  it('findsEachAnswerByItsKeyWhenTheAsksAreReordered', async () => {
    // A state minted by one version of the handler, answered to the next version that asks in
    // the other order: each answer is still read as the answer to its own question.
    const before = serve('colour-first')
    const first = resultOf(await before.client.callTool('order'))
    const second = await answer(before.client, 'order', first.requestState, {
      colour: accept({ colour: 'blue' }),
    })
    const after = serve('size-first')
    const done = await answer(after.client, 'order', second.requestState, { size: accept({ size: '2' }) })
    expect(textOf(done)).toBe('blue x2')
  })

  it('asksAgainWhenTheContentDoesNotFitTheSchema', async () => {
    const { client } = serve()
    const first = resultOf(await client.callTool('order'))
    const again = await answer(client, 'order', first.requestState, { colour: accept({ colour: 'green' }) })
    expect(again.resultType).toBe('input_required')
    expect(Object.keys(again.inputRequests as Json)).toEqual(['colour'])
  })

  it('sendsTheFormGeneratedFromTheSchema', async () => {
    const { client } = serve()
    const first = resultOf(await client.callTool('order'))
    const request = (first.inputRequests as Json).colour as Json
    expect(request).toEqual({
      method: 'elicitation/create',
      params: {
        mode: 'form',
        message: 'Colour?',
        requestedSchema: {
          type: 'object',
          properties: { colour: { type: 'string', enum: ['red', 'blue'] } },
          required: ['colour'],
        },
      },
    })
  })

  it('asksSeveralQuestionsInOneRound', async () => {
    const { client } = serve()
    const first = resultOf(await client.callTool('both'))
    expect(Object.keys(first.inputRequests as Json).sort()).toEqual(['c', 'r'])
    const done = await answer(client, 'both', first.requestState, {
      c: accept({ colour: 'red' }),
      r: { roots: [{ uri: 'file:///a' }] },
    })
    expect(textOf(done)).toBe('red in 1 roots')
  })

  it('reportsAHandlerThatSwallowsItsAskByName', async () => {
    const { client, logger } = serve()
    const result = resultOf(await client.callTool('swallows'))
    expect(result.isError).toBe(true)
    expect(textOf(result)).toBe("Tool 'swallows' failed.")
    expect(JSON.stringify(result)).not.toContain('[object Object]')
    const err = logger.entries.find((e) => e.obj.event === 'tool_failed')?.obj.err as Error
    expect(err.message).toBe(
      "Tool 'swallows' caught the signal thrown by ctx.ask() and returned instead; let it propagate (rethrow it from any catch).",
    )
  })

  it('refusesAFormFieldThatIsNotPrimitive', () => {
    expect(() =>
      elicitForm({ message: 'x', schema: z.object({ nested: z.object({ a: z.string() }) }) }),
    ).toThrow(
      "elicitForm: field 'nested' must be a string, number, integer, boolean, string enum or array of string enums.",
    )
  })
})
