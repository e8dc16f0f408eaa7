/**
 * @module catalogue
 * Resources, templates, prompts and the triggers that change lists while a client listens.
 */
import { elicitForm, type McpServer } from '@tessera/core'
import { PNG_1X1 } from './media.ts'

export function registerResources(app: McpServer): void {
  app.resource(
    'test://static-text',
    { name: 'static-text', description: 'A static text resource', mimeType: 'text/plain' },
    (uri) => ({
      contents: [{ uri, mimeType: 'text/plain', text: 'This is the content of the static text resource.' }],
    }),
  )
  app.resource(
    'test://static-binary',
    { name: 'static-binary', description: 'A static PNG', mimeType: 'image/png' },
    (uri) => ({
      contents: [{ uri, mimeType: 'image/png', blob: PNG_1X1 }],
    }),
  )
  app.resource(
    'test://watched-resource',
    { name: 'watched-resource', description: 'A resource to subscribe to', mimeType: 'text/plain' },
    (uri) => ({
      contents: [{ uri, mimeType: 'text/plain', text: 'Watched resource content.' }],
    }),
  )
  app.resourceTemplate(
    'test://template/{id}/data',
    {
      name: 'template',
      description: 'A templated JSON resource',
      mimeType: 'application/json',
      complete: { id: (v) => ['123', '456'].filter((x) => x.startsWith(v)) },
    },
    (uri, { id }) => ({
      contents: [
        {
          uri,
          mimeType: 'application/json',
          text: JSON.stringify({ id, templateTest: true, data: `Data for ID: ${id}` }),
        },
      ],
    }),
  )
}

export function registerPrompts(app: McpServer): void {
  app.prompt('test_simple_prompt', { description: 'A prompt without arguments' }, () => ({
    messages: [{ role: 'user', content: { type: 'text', text: 'This is a simple prompt for testing.' } }],
  }))
  app.prompt(
    'test_prompt_with_arguments',
    {
      description: 'A prompt with two arguments',
      args: [
        { name: 'arg1', description: 'First argument', required: true },
        { name: 'arg2', description: 'Second argument', required: true },
      ],
      complete: {
        arg1: (value) => ['test-value-1', 'test-value-2', 'other'].filter((v) => v.startsWith(value)),
      },
    },
    (args) => ({
      messages: [
        {
          role: 'user',
          content: { type: 'text', text: `Prompt with arguments: arg1='${args.arg1}', arg2='${args.arg2}'` },
        },
      ],
    }),
  )
  app.prompt(
    'test_prompt_with_embedded_resource',
    {
      description: 'A prompt that embeds a resource',
      args: [{ name: 'resourceUri', description: 'URI to embed', required: true }],
    },
    (args) => ({
      messages: [
        {
          role: 'user',
          content: {
            type: 'resource',
            resource: {
              uri: args.resourceUri!,
              mimeType: 'text/plain',
              text: 'Embedded resource content for testing.',
            },
          },
        },
        { role: 'user', content: { type: 'text', text: 'Please process the embedded resource above.' } },
      ],
    }),
  )
  app.prompt('test_prompt_with_image', { description: 'A prompt with an image' }, () => ({
    messages: [
      { role: 'user', content: { type: 'image', data: PNG_1X1, mimeType: 'image/png' } },
      { role: 'user', content: { type: 'text', text: 'Please analyze the image above.' } },
    ],
  }))
  app.prompt(
    'test_input_required_result_prompt',
    { description: 'A prompt that asks first (MRTR)' },
    async (_args, ctx) => {
      const answer = await ctx.ask(
        'topic',
        elicitForm({
          message: 'Which topic?',
          requestedSchema: { type: 'object', properties: { topic: { type: 'string' } } },
        }),
      )
      const topic = answer.action === 'accept' ? String(answer.content.topic ?? 'anything') : 'anything'
      return { messages: [{ role: 'user', content: { type: 'text', text: `Write about ${topic}.` } }] }
    },
  )
}

export function registerTriggers(app: McpServer): void {
  let toolChanges = 0
  let promptChanges = 0
  const dynamicTool = () =>
    app.tool(
      'test_dynamic_tool',
      { description: `A tool that changes (version ${toolChanges})` },
      () => `version ${toolChanges}`,
    )
  const dynamicPrompt = () =>
    app.prompt(
      'test_dynamic_prompt',
      { description: `A prompt that changes (version ${promptChanges})` },
      () => ({
        messages: [{ role: 'user', content: { type: 'text', text: `version ${promptChanges}` } }],
      }),
    )
  dynamicTool()
  dynamicPrompt()
  app.tool('test_trigger_tool_change', { description: 'Changes the tool list.' }, () => {
    toolChanges++
    // A name is registered once: the new version replaces the old one by removing it first.
    app.removeTool('test_dynamic_tool')
    dynamicTool()
    return 'Tool list changed.'
  })
  app.tool('test_trigger_prompt_change', { description: 'Changes the prompt list.' }, () => {
    promptChanges++
    app.removePrompt('test_dynamic_prompt')
    dynamicPrompt()
    return 'Prompt list changed.'
  })
  app.tool('test_trigger_resource_update', { description: 'Marks the watched resource as updated.' }, () => {
    app.notifyResourceUpdated('test://watched-resource')
    return 'Resource updated.'
  })
}
