/**
 * @module answers
 * The client's answers to input requests, validated before a handler sees them. An elicitation
 * answer is a union on `action`: content exists only on `accept`, so code that reads the content
 * has read the action first. Content sent along with a decline or cancel is dropped here.
 */
import { z } from 'zod'
import type { InputRequest } from './input-requests.ts'

export type ElicitationContent = Record<string, string | number | boolean | string[]>

export type ElicitationAnswer =
  | { readonly action: 'accept'; readonly content: ElicitationContent }
  | { readonly action: 'decline' }
  | { readonly action: 'cancel' }

export interface SamplingAnswer {
  role: 'user' | 'assistant'
  content: Record<string, unknown> | Array<Record<string, unknown>>
  model: string
  stopReason?: string
}

export interface RootsAnswer {
  roots: Array<{ uri: string; name?: string }>
}

export type Answer = ElicitationAnswer | SamplingAnswer | RootsAnswer

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
export function readAnswer(request: InputRequest, raw: unknown): Answer | undefined {
  switch (request.method) {
    case 'elicitation/create':
      return readElicitation(request, raw)
    case 'sampling/createMessage': {
      const parsed = samplingResult.safeParse(raw)
      return parsed.success ? (parsed.data as SamplingAnswer) : undefined
    }
    case 'roots/list': {
      const parsed = rootsResult.safeParse(raw)
      return parsed.success ? (parsed.data as RootsAnswer) : undefined
    }
  }
}

function readElicitation(request: InputRequest, raw: unknown): ElicitationAnswer | undefined {
  const parsed = elicitResult.safeParse(raw)
  if (!parsed.success) return undefined
  const { action, content } = parsed.data
  if (action !== 'accept') return { action }
  const params = request.params as { mode?: string; requestedSchema?: { required?: string[] } }
  if (params.mode === 'url') return { action: 'accept', content: {} }
  const answered = content ?? {}
  for (const name of params.requestedSchema?.required ?? []) {
    if (!(name in answered)) return undefined
  }
  return { action: 'accept', content: answered }
}

export function isRefusal(answer: Answer): answer is { action: 'decline' } | { action: 'cancel' } {
  return 'action' in answer && answer.action !== 'accept'
}
