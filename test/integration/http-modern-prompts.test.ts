/**
 * @module http-modern-prompts.test
 * Prompts and completion on a dual-era server over the 2026-07-28 wire: discover lists the
 * handshake versions too, completion/complete completes a prompt argument, prompts/list flags the
 * required arguments, and a missing required argument is invalid params.
 */
import { createServer } from '@tessera/core'
import { listen, type RunningServer } from '@tessera/core/http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { capturingLogger, errorOf, McpHttpClient, resultOf, VERSION } from '../helpers/mcp-http.ts'

describe('prompts and completion', () => {
  let running: RunningServer
  let prompts: McpHttpClient

  beforeAll(async () => {
    const app = createServer({ name: 'it-prompts', version: '1.0.0', logger: capturingLogger() })
    app.prompt(
      'greet',
      {
        description: 'Greets in a language',
        args: z.object({ language: z.string(), tone: z.string().optional() }),
        complete: {
          language: (value) => ['english', 'french', 'german', 'finnish'].filter((l) => l.startsWith(value)),
        },
      },
      ({ language }) => ({
        messages: [{ role: 'user', content: { type: 'text', text: `Say hello in ${language}` } }],
      }),
    )
    running = await listen(app, { port: 0 })
    prompts = new McpHttpClient(running.url)
  })
  afterAll(async () => {
    await running.close()
  })

  it('listsTheHandshakeVersionsTooOnADualEraServer', async () => {
    const result = resultOf(await prompts.request('server/discover'))
    expect(result.supportedVersions).toEqual(expect.arrayContaining([VERSION, '2025-11-25']))
    expect((result.supportedVersions as string[])[0]).toBe(VERSION)
  })

  it('completesAPromptArgument', async () => {
    const reply = await prompts.request('completion/complete', {
      ref: { type: 'ref/prompt', name: 'greet' },
      argument: { name: 'language', value: 'f' },
    })
    const result = resultOf(reply)
    expect(result.completion).toEqual({ values: ['french', 'finnish'], total: 2, hasMore: false })
    expect(result.resultType).toBe('complete')
    expect(result).not.toHaveProperty('ttlMs')
  })

  it('listsPromptsWithRequiredFlags', async () => {
    const result = resultOf(await prompts.request('prompts/list'))
    expect(result.prompts).toEqual([
      {
        name: 'greet',
        description: 'Greets in a language',
        arguments: [
          { name: 'language', required: true },
          { name: 'tone', required: false },
        ],
      },
    ])
  })

  it('refusesAMissingRequiredPromptArgument', async () => {
    const reply = await prompts.request('prompts/get', { name: 'greet', arguments: {} })
    expect(errorOf(reply).code).toBe(-32602)
  })
})
