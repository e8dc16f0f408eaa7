/**
 * @module answers
 * The client's answers to input requests, validated before a handler sees them. An elicitation
 * answer is a union on `action`: content exists only on `accept`, so code that reads the content
 * has read the action first. Content sent along with a decline or cancel is dropped here. A form
 * built from a zod schema has its content parsed by that schema, and typed from it.
 */
import { z } from 'zod'
import type {
  ElicitationContent,
  ElicitationRequest,
  InputRequest,
  RootsRequest,
  SamplingRequest,
} from '../../protocol/modern/input-requests.ts'
import { contentSchemaOf } from './input-requests.ts'

/**
 * The answer to an elicitation: `accept` with its content (typed `C`, from the form's zod schema
 * when it was built from one), or `decline` or `cancel` without any, so the action is read first.
 */
export type ElicitationAnswer<C = ElicitationContent> =
  | { readonly action: 'accept'; readonly content: C }
  | { readonly action: 'decline' }
  | { readonly action: 'cancel' }

/**
 * The answer to a sampling request (`createMessage`): the message the client's model wrote, the
 * model's name, and why it stopped.
 */
export interface SamplingAnswer {
  role: 'user' | 'assistant'
  content: Record<string, unknown> | Array<Record<string, unknown>>
  model: string
  stopReason?: string
}

/** The answer to `listRoots()`: the client's roots, each a `file://` URI with an optional name. */
export interface RootsAnswer {
  roots: Array<{ uri: string; name?: string }>
}

/** The answer `ctx.ask` resolves with for request `R`. */
export type AnswerOf<R extends InputRequest> =
  R extends ElicitationRequest<infer C>
    ? ElicitationAnswer<C>
    : R extends SamplingRequest
      ? SamplingAnswer
      : R extends RootsRequest
        ? RootsAnswer
        : never

export type Answer = ElicitationAnswer<unknown> | SamplingAnswer | RootsAnswer

/**
 * A readable answer: `answer` is what the handler gets; `record` is the validated wire form that
 * the next state carries (re-read each round, so a schema with transforms is never parsed twice).
 */
export type ReadAnswer = { answer: Answer; record: unknown }

const contentValue = z.union([z.string(), z.number(), z.boolean(), z.array(z.string())])
const elicitResult = z.object({
  action: z.enum(['accept', 'decline', 'cancel']),
  content: z.record(z.string(), contentValue).optional(),
})
const block = z.looseObject({ type: z.string() })
const samplingResult = z.looseObject({
  role: z.enum(['user', 'assistant']),
  content: z.union([block, z.array(block)]),
  model: z.string(),
  stopReason: z.string().optional(),
})
const rootsResult = z.looseObject({
  roots: z.array(z.looseObject({ uri: z.string().startsWith('file://'), name: z.string().optional() })),
})

/** Reads a raw answer for the request it answers; undefined when it is not a readable answer. */
export function readAnswer(request: InputRequest, raw: unknown): ReadAnswer | undefined {
  switch (request.method) {
    case 'elicitation/create':
      return readElicitation(request, raw)
    case 'sampling/createMessage': {
      const parsed = samplingResult.safeParse(raw)
      return parsed.success ? { answer: parsed.data as SamplingAnswer, record: parsed.data } : undefined
    }
    case 'roots/list': {
      const parsed = rootsResult.safeParse(raw)
      return parsed.success ? { answer: parsed.data as RootsAnswer, record: parsed.data } : undefined
    }
  }
}

function readElicitation(request: ElicitationRequest<unknown>, raw: unknown): ReadAnswer | undefined {
  const parsed = elicitResult.safeParse(raw)
  if (!parsed.success) return undefined
  const { action, content } = parsed.data
  if (action !== 'accept') return { answer: { action }, record: { action } }
  const params = request.params
  if (params.mode === 'url') return { answer: { action, content: {} }, record: { action } }
  const answered = content ?? {}
  const record = { action, content: answered }
  const schema = contentSchemaOf(request)
  if (schema !== undefined) {
    const typed = schema.safeParse(answered)
    return typed.success ? { answer: { action, content: typed.data }, record } : undefined
  }
  for (const name of params.requestedSchema.required ?? []) {
    if (!(name in answered)) return undefined
  }
  return { answer: { action, content: answered }, record }
}

export function isRefusal(answer: Answer): answer is { action: 'decline' } | { action: 'cancel' } {
  return 'action' in answer && answer.action !== 'accept'
}
