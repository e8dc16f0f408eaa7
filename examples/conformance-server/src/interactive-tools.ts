/**
 * @module interactive-tools
 * The tools that ask the client for input. They are written once, in the await style, and serve
 * both eras: on 2026-07-28 each ask ends a round (MRTR), on 2025-11-25 it is a real request.
 */
import { createMessage, elicitForm, listRoots, type McpServer, type RequestContext } from '@tessera/core'
import { z } from 'zod'

const askName = elicitForm({
  message: 'What is your name?',
  requestedSchema: {
    type: 'object',
    properties: { name: { type: 'string', title: 'Name' } },
    required: ['name'],
  },
})
const askCapital = createMessage({
  messages: [{ role: 'user', content: { type: 'text', text: 'What is the capital of France?' } }],
  maxTokens: 100,
})
const askConfirm = elicitForm({
  message: 'Please confirm to continue.',
  requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } },
})

function answerText(answer: { action: string; content?: unknown }): string {
  return answer.action === 'accept' ? `accepted ${JSON.stringify(answer.content)}` : `${answer.action}ed`
}

export function registerInteractiveTools(app: McpServer): void {
  app.tool(
    'test_input_required_result_elicitation',
    { description: 'Asks for the user name (MRTR).' },
    async (_a, ctx) => {
      const answer = await ctx.ask('user_name', askName)
      if (answer.action !== 'accept') return 'Nothing was done: the user declined.'
      return `Hello, ${String(answer.content.name)}!`
    },
  )
  app.tool(
    'test_input_required_result_sampling',
    { description: 'Asks the client LLM a question (MRTR).' },
    async (_a, ctx) => {
      const answer = await ctx.ask('capital_question', askCapital)
      return `The model said: ${JSON.stringify(answer.content)}`
    },
  )
  app.tool(
    'test_input_required_result_list_roots',
    { description: 'Asks for the client roots (MRTR).' },
    async (_a, ctx) => {
      const answer = await ctx.ask('client_roots', listRoots())
      return `Roots: ${answer.roots.map((r) => r.uri).join(', ')}`
    },
  )
  // The answer of the first round comes back inside the sealed requestState: reaching the
  // return below proves the state was echoed, opened and verified.
  const stateful = async (_a: unknown, ctx: RequestContext) => {
    const answer = await ctx.ask('confirm', askConfirm)
    return `state-ok: ${answerText(answer)}`
  }
  app.tool(
    'test_input_required_result_request_state',
    { description: 'Carries its own state across rounds.' },
    stateful,
  )
  app.tool(
    'test_input_required_result_tampered_state',
    { description: 'Refuses a tampered state.' },
    stateful,
  )
  app.tool(
    'test_input_required_result_multiple_inputs',
    { description: 'Asks three things at once.' },
    async (_a, ctx) => {
      const answers = await ctx.askAll({
        user_name: askName,
        capital_question: askCapital,
        client_roots: listRoots(),
      })
      return `Got ${answerText(answers.user_name)}, a model answer and ${answers.client_roots.roots.length} roots.`
    },
  )
  app.tool(
    'test_input_required_result_multi_round',
    { description: 'Asks twice, in two rounds.' },
    async (_a, ctx) => {
      const first = await ctx.ask('user_name', askName)
      const second = await ctx.ask('confirm', askConfirm)
      return `Round 1: ${answerText(first)}; round 2: ${answerText(second)}.`
    },
  )
  app.tool(
    'test_input_required_result_capabilities',
    { description: 'Asks only for what the client declared.' },
    async (_a, ctx) => {
      const caps = ctx.client.capabilities
      if (caps.elicitation) return answerText(await ctx.ask('user_name', askName))
      if (caps.sampling)
        return `Sampled: ${JSON.stringify((await ctx.ask('capital_question', askCapital)).content)}`
      if (caps.roots) return `Roots: ${(await ctx.ask('client_roots', listRoots())).roots.length}`
      return 'The client declared no input capability; nothing to ask.'
    },
  )
  app.tool(
    'test_missing_capability',
    { description: 'Needs sampling, whatever the client declared.' },
    async (_a, ctx) => {
      const answer = await ctx.ask('capital_question', askCapital)
      return `The model said: ${JSON.stringify(answer.content)}`
    },
  )
  app.tool(
    'test_streaming_elicitation',
    { description: 'Elicits without server-to-client requests.' },
    async (_a, ctx) => {
      const answer = await ctx.ask(
        'continue',
        elicitForm({ message: 'Continue?', requestedSchema: askConfirmSchema }),
      )
      return answerText(answer)
    },
  )
  registerHandshakeInteractiveTools(app)
}

const askConfirmSchema = { type: 'object' as const, properties: { ok: { type: 'boolean' } } }

/** Tools the 2025-11-25 scenarios call; in that era every ask is a real server-to-client request. */
function registerHandshakeInteractiveTools(app: McpServer): void {
  app.tool(
    'test_sampling',
    { description: 'Asks the client LLM for a completion.', input: z.object({ prompt: z.string() }) },
    async ({ prompt }, ctx) => {
      const answer = await ctx.ask(
        'completion',
        createMessage({
          messages: [{ role: 'user', content: { type: 'text', text: prompt } }],
          maxTokens: 100,
        }),
      )
      const content = Array.isArray(answer.content) ? answer.content[0] : answer.content
      return `LLM response: ${String((content as { text?: unknown } | undefined)?.text ?? '')}`
    },
  )
  app.tool(
    'test_elicitation',
    { description: 'Asks the user for information.', input: z.object({ message: z.string() }) },
    async ({ message }, ctx) => {
      const answer = await ctx.ask(
        'user_details',
        elicitForm({
          message,
          requestedSchema: {
            type: 'object',
            properties: {
              username: { type: 'string', description: 'Your username' },
              email: { type: 'string' },
            },
            required: ['username'],
          },
        }),
      )
      return `User response: ${answerText(answer)}`
    },
  )
  app.tool(
    'test_elicitation_sep1034_defaults',
    { description: 'Elicits with defaults (SEP-1034).' },
    async (_a, ctx) => {
      const answer = await ctx.ask(
        'review',
        elicitForm({
          message: 'Please review your information',
          requestedSchema: {
            type: 'object',
            properties: {
              name: { type: 'string', default: 'John Doe' },
              age: { type: 'integer', default: 30 },
              score: { type: 'number', default: 95.5 },
              status: { type: 'string', enum: ['active', 'inactive', 'pending'], default: 'active' },
              verified: { type: 'boolean', default: true },
            },
          },
        }),
      )
      return `Elicitation completed: ${answerText(answer)}`
    },
  )
  app.tool(
    'test_elicitation_sep1330_enums',
    { description: 'Elicits with every enum form (SEP-1330).' },
    async (_a, ctx) => {
      const answer = await ctx.ask(
        'options',
        elicitForm({
          message: 'Please select options',
          requestedSchema: {
            type: 'object',
            properties: {
              untitledSingle: { type: 'string', enum: ['option1', 'option2', 'option3'] },
              titledSingle: {
                type: 'string',
                oneOf: [
                  { const: 'value1', title: 'First Option' },
                  { const: 'value2', title: 'Second Option' },
                ],
              },
              legacyEnum: { type: 'string', enum: ['opt1', 'opt2'], enumNames: ['Option One', 'Option Two'] },
              untitledMulti: {
                type: 'array',
                items: { type: 'string', enum: ['option1', 'option2', 'option3'] },
              },
              titledMulti: {
                type: 'array',
                items: {
                  anyOf: [
                    { const: 'value1', title: 'First Choice' },
                    { const: 'value2', title: 'Second Choice' },
                  ],
                },
              },
            },
          },
        }),
      )
      return `Elicitation completed: ${answerText(answer)}`
    },
  )
}
