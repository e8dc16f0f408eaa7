/**
 * @module content-tools
 * The tools that return each kind of content block, plus the error, progress and logging tools.
 */
import type { McpServer } from '@tessera/core'
import { ToolError } from '@tessera/core'
import { z } from 'zod'
import { PNG_1X1, WAV_SILENCE } from './media.ts'

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms)
    signal?.addEventListener('abort', () => {
      clearTimeout(timer)
      resolve()
    })
  })

export function registerContentTools(app: McpServer): void {
  app.tool('test_simple_text', { description: 'Returns a simple text response.' }, () => ({
    content: [{ type: 'text', text: 'This is a simple text response for testing.' }],
  }))
  app.tool('test_image_content', { description: 'Returns a 1x1 PNG image.' }, () => ({
    content: [{ type: 'image', data: PNG_1X1, mimeType: 'image/png' }],
  }))
  app.tool('test_audio_content', { description: 'Returns a short WAV clip.' }, () => ({
    content: [{ type: 'audio', data: WAV_SILENCE, mimeType: 'audio/wav' }],
  }))
  app.tool('test_embedded_resource', { description: 'Returns an embedded resource.' }, () => ({
    content: [
      {
        type: 'resource',
        resource: {
          uri: 'test://embedded-resource',
          mimeType: 'text/plain',
          text: 'This is an embedded resource content.',
        },
      },
    ],
  }))
  app.tool('test_multiple_content_types', { description: 'Returns text, an image and a resource.' }, () => ({
    content: [
      { type: 'text', text: 'Multiple content types test:' },
      { type: 'image', data: PNG_1X1, mimeType: 'image/png' },
      {
        type: 'resource',
        resource: {
          uri: 'test://mixed-content-resource',
          mimeType: 'application/json',
          text: '{"test":"data","value":123}',
        },
      },
    ],
  }))
  app.tool('test_error_handling', { description: 'Always fails with isError.' }, () => {
    throw new ToolError('This tool intentionally returns an error for testing')
  })
  app.tool('test_tool_with_progress', { description: 'Reports progress 0, 50, 100.' }, async (_args, ctx) => {
    for (const step of [0, 50, 100]) {
      ctx.progress(step, 100, `step ${step}`)
      if (step < 100) await sleep(50, ctx.signal)
    }
    return 'Progress complete.'
  })
  const logging = async (_args: unknown, ctx: import('@tessera/core').RequestContext) => {
    for (const message of ['Tool execution started', 'Tool processing data', 'Tool execution completed']) {
      ctx.log('info', message)
      await sleep(50, ctx.signal)
    }
    return 'Logging complete.'
  }
  app.tool('test_tool_with_logging', { description: 'Sends three log messages.' }, logging)
  app.tool('test_logging_tool', { description: 'Logs only when the request opted in.' }, logging)
  app.tool(
    'test_reconnection',
    { description: 'Closes its stream mid-call; the result arrives on resume.' },
    async (_a, ctx) => {
      ctx.closeStream()
      await sleep(200)
      return 'Reconnection test completed.'
    },
  )
  app.tool(
    'test_x_mcp_header',
    {
      description: 'Mirrors its region argument into the Mcp-Param-Region header.',
      input: z.object({ region: z.string().meta({ 'x-mcp-header': 'Region' }) }),
    },
    ({ region }) => `Region: ${region}`,
  )
  app.tool(
    'json_schema_2020_12_tool',
    { description: 'Tool with JSON Schema 2020-12 features', input: JSON_SCHEMA_2020_12 },
    () => 'ok',
  )
}

export const JSON_SCHEMA_2020_12 = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  $defs: {
    address: {
      $anchor: 'addressDef',
      type: 'object',
      properties: { street: { type: 'string' }, city: { type: 'string' } },
    },
  },
  properties: {
    name: { type: 'string' },
    address: { $ref: '#/$defs/address' },
    contactMethod: { type: 'string', enum: ['phone', 'email'] },
    phone: { type: 'string' },
    email: { type: 'string' },
  },
  allOf: [{ anyOf: [{ required: ['phone'] }, { required: ['email'] }] }],
  if: { properties: { contactMethod: { const: 'phone' } }, required: ['contactMethod'] },
  then: { required: ['phone'] },
  else: { required: ['email'] },
  additionalProperties: false,
}
