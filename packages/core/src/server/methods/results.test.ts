/**
 * @module results.test
 * What a handler returns is checked before it goes on the wire, through the fetch face: a value
 * that is not a valid result is never sent as invalid MCP. The client gets a safe failure; the
 * log names the handler and says what was wrong, and calls a bad return value a bad return
 * value, not a throw.
 */
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { fetchClient } from '../../../../../test/helpers/fetch-client.ts'
import { capturingLogger, errorOf, resultOf, textOf } from '../../../../../test/helpers/mcp-http.ts'
import { createServer } from '../create-server.ts'
import { ToolError } from '../tool-error.ts'

function serve() {
  const logger = capturingLogger()
  const app = createServer({ name: 'results', version: '1.0.0', logger })
  // Each handler below stands for one written in JavaScript, where the types do not protect it.
  const loose = <T>(value: unknown) => value as T
  app.tool('text', { description: 'Text' }, () => 'plain words')
  app.tool('oops', { description: 'Returns no content' }, () => loose<string>({ text: 'oops' }))
  app.tool('nothing', { description: 'Returns undefined' }, () => loose<string>(undefined))
  app.tool('bad-block', { description: 'Unknown block' }, () => ({
    content: [loose({ type: 'video', url: 'x' })],
  }))
  // A promise of another library (or realm): awaited as `await` would, not taken for a result.
  app.tool('thenable', { description: 'Thenable' }, () =>
    loose<string>({ then: (settle: (value: unknown) => void) => settle('settled later') }),
  )
  app.tool('throws', { description: 'Throws' }, () => {
    throw new Error('database password is hunter2')
  })
  app.tool('refuses', { description: 'ToolError' }, () => {
    throw new ToolError('Service checkout is locked for deploys.')
  })
  app.tool(
    'structured',
    { description: 'Structured', output: z.object({ n: z.number() }), input: z.object({ n: z.unknown() }) },
    ({ n }) => ({ content: [{ type: 'text', text: 'n' }], structuredContent: { n: loose<number>(n) } }),
  )
  app.prompt('bad-prompt', { description: 'No messages' }, () => loose({ text: 'oops' }))
  app.resource('config://bad', { name: 'bad' }, () => loose({ contents: [{ text: 'no uri' }] }))
  return { client: fetchClient(app), logger }
}

describe('tool results', () => {
  it('sendsTextAsOneTextBlock', async () => {
    const { client } = serve()
    expect(resultOf(await client.callTool('text')).content).toEqual([{ type: 'text', text: 'plain words' }])
  })

  it('awaitsAThenableThatIsNotANativePromise', async () => {
    const { client } = serve()
    expect(resultOf(await client.callTool('thenable')).content).toEqual([
      { type: 'text', text: 'settled later' },
    ])
  })

  it('turnsAResultWithoutContentIntoAFailureThatNamesTheTool', async () => {
    const { client, logger } = serve()
    const result = resultOf(await client.callTool('oops'))
    expect(result).toMatchObject({ isError: true, content: [{ type: 'text' }] })
    expect(textOf(result)).toBe("Tool 'oops' produced an invalid result.")
    const entry = logger.entries.find((e) => e.obj.event === 'tool_result_invalid')
    expect(entry?.msg).toBe("Tool 'oops' returned an invalid result: its result has no content array")
    expect(logger.entries.some((e) => e.msg?.includes('threw'))).toBe(false)
  })

  it('saysAHandlerReturnedNothing', async () => {
    const { client, logger } = serve()
    expect(resultOf(await client.callTool('nothing')).isError).toBe(true)
    expect(logger.entries.at(-1)?.msg).toBe(
      "Tool 'nothing' returned an invalid result: it returned nothing, not a string or { content: [...] }",
    )
  })

  it('refusesAnUnknownContentBlock', async () => {
    const { client, logger } = serve()
    expect(resultOf(await client.callTool('bad-block')).isError).toBe(true)
    expect(logger.entries.at(-1)?.msg).toBe(
      `Tool 'bad-block' returned an invalid result: content[0] has an unknown type "video"`,
    )
  })

  it('logsAThrowAsAThrowWithTheErrorAndNeverSendsItsMessage', async () => {
    const { client, logger } = serve()
    const reply = await client.callTool('throws')
    expect(textOf(resultOf(reply))).toBe("Tool 'throws' failed.")
    expect(reply.raw).not.toContain('hunter2')
    const entry = logger.entries.find((e) => e.obj.event === 'tool_failed')
    expect(entry?.msg).toBe("Tool 'throws' threw")
    expect((entry!.obj.err as Error).message).toBe('database password is hunter2')
  })

  it('sendsTheMessageOfAToolError', async () => {
    const { client } = serve()
    expect(resultOf(await client.callTool('refuses'))).toEqual(
      expect.objectContaining({
        isError: true,
        content: [{ type: 'text', text: 'Service checkout is locked for deploys.' }],
      }),
    )
  })

  it('checksStructuredContentAgainstTheOutputSchemaAndNamesThePath', async () => {
    const { client, logger } = serve()
    expect(resultOf(await client.callTool('structured', { n: 2 })).structuredContent).toEqual({ n: 2 })
    expect(resultOf(await client.callTool('structured', { n: 'two' })).isError).toBe(true)
    expect(logger.entries.at(-1)?.msg).toMatch(
      /^Tool 'structured' returned structuredContent that does not match its output schema at \/n: /,
    )
  })
})

describe('prompt and resource results', () => {
  it('answersAnInvalidPromptResultWithAnInternalErrorAndLogsWhy', async () => {
    const { client, logger } = serve()
    const error = errorOf(await client.request('prompts/get', { name: 'bad-prompt' }))
    expect(error.code).toBe(-32603)
    expect(logger.entries.at(-1)?.msg).toBe(
      "Prompt 'bad-prompt' returned an invalid result: its result has no messages array",
    )
  })

  it('answersAnInvalidResourceResultWithAnInternalErrorAndLogsWhy', async () => {
    const { client, logger } = serve()
    const error = errorOf(await client.request('resources/read', { uri: 'config://bad' }))
    expect(error.code).toBe(-32603)
    expect(logger.entries.at(-1)?.msg).toBe(
      "the handler of resource 'config://bad' returned an invalid result: contents[0] needs a string uri",
    )
  })
})
