/**
 * @module handler-types.test-d
 * Types that reach the handler, checked by the compiler (`npm run typecheck`), never run: tool
 * arguments and prompt arguments inferred from their schemas, `structuredContent` checked against
 * `output`, and answers typed from what was asked. Every `@ts-expect-error` below is a wrong
 * access that must not compile; if one compiles, the typecheck fails on the unused directive.
 */
import { expectTypeOf } from 'vitest'
import { z } from 'zod'
import type { ElicitationContent } from '../protocol/modern/input-requests.ts'
import type { RequestContext } from './context.ts'
import { createServer } from './create-server.ts'
import type { RootsAnswer, SamplingAnswer } from './mrtr/answers.ts'
import { createMessage, elicitForm, listRoots } from './mrtr/input-requests.ts'

const app = createServer({ name: 'types', version: '1.0.0' })
const output = z.object({ n: z.number(), label: z.string().optional() })

app.tool(
  'args',
  { description: 'x', input: z.object({ a: z.number(), b: z.string().default('b') }) },
  (args) => {
    expectTypeOf(args).toEqualTypeOf<{ a: number; b: string }>()
    // @ts-expect-error: the schema has no `c`
    args.c
    return 'ok'
  },
)

app.tool('structured', { description: 'x', output }, () => ({ content: [], structuredContent: { n: 1 } }))
app.tool('failed', { description: 'x', output }, () => ({
  content: [{ type: 'text', text: 'no' }],
  isError: true,
}))
// @ts-expect-error: `n` must be a number
app.tool('wrong-type', { description: 'x', output }, () => ({ content: [], structuredContent: { n: 'one' } }))
// @ts-expect-error: a tool with `output` must return structuredContent (or fail)
app.tool('missing', { description: 'x', output }, () => ({ content: [] }))
// @ts-expect-error: text alone is not a structured result
app.tool('text', { description: 'x', output }, () => 'just text')

app.prompt(
  'zod-args',
  { description: 'x', args: z.object({ service: z.string(), hours: z.coerce.number().optional() }) },
  (args) => {
    expectTypeOf(args.service).toEqualTypeOf<string>()
    expectTypeOf(args.hours).toEqualTypeOf<number | undefined>()
    // @ts-expect-error: the schema has no `other`
    args.other
    return { messages: [] }
  },
)

app.prompt(
  'listed-args',
  { description: 'x', args: [{ name: 'service', required: true }, { name: 'note' }] },
  (args) => {
    expectTypeOf(args.service).toEqualTypeOf<string>()
    expectTypeOf(args.note).toEqualTypeOf<string | undefined>()
    // @ts-expect-error: not a listed argument
    args.other
    return { messages: [] }
  },
)

app.tool('asks', { description: 'x' }, async (_args, ctx) => {
  const typed = await ctx.ask('ok', elicitForm({ message: 'OK?', schema: z.object({ ok: z.boolean() }) }))
  // @ts-expect-error: content exists only on an accepted answer
  typed.content
  if (typed.action === 'accept') {
    expectTypeOf(typed.content).toEqualTypeOf<{ ok: boolean }>()
    // @ts-expect-error: the form has no `nope`
    typed.content.nope
  }
  const raw = await ctx.ask(
    'raw',
    elicitForm({ message: 'x', requestedSchema: { type: 'object', properties: {} } }),
  )
  if (raw.action === 'accept') expectTypeOf(raw.content).toEqualTypeOf<ElicitationContent>()
  expectTypeOf(await ctx.ask('roots', listRoots())).toEqualTypeOf<RootsAnswer>()
  const all = await ctx.askAll({ r: listRoots(), s: createMessage({ messages: [], maxTokens: 1 }) })
  expectTypeOf(all.r).toEqualTypeOf<RootsAnswer>()
  expectTypeOf(all.s).toEqualTypeOf<SamplingAnswer>()
  return 'ok'
})

declare const ctx: RequestContext
// @ts-expect-error: one way to ask: ctx.ask(key, …) and ctx.askAll({…})
ctx.elicit
// @ts-expect-error: no positional or explicit-style helpers
ctx.inputRequired
