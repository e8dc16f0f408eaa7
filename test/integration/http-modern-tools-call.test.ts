/**
 * @module http-modern-tools-call.test
 * tools/call on the 2026-07-28 wire: a tool's text, bad arguments named by path, a throwing tool
 * turned into a safe isError result (the detail only in logs), a ToolError message passed through,
 * an output schema violation, and an unknown tool.
 */
import { describe, expect, it } from 'vitest'
import { errorOf, type Json, META, resultOf, textOf } from '../helpers/mcp-http.ts'
import { client, mainLogger, useMainServer } from './fixtures/modern-server.ts'

useMainServer()

describe('tools/call', () => {
  it('callsAToolAndReturnsItsText', async () => {
    const reply = await client.callTool('echo', { text: 'hi' })
    expect(reply.status).toBe(200)
    const result = resultOf(reply)
    expect(result.resultType).toBe('complete')
    expect(textOf(result)).toBe('echo: hi')
    expect(result).not.toHaveProperty('ttlMs')
    expect((result._meta as Json)[META.serverInfo]).toEqual({ name: 'it-main', version: '1.2.3' })
  })

  it('refusesBadArgumentsNamingThePath', async () => {
    const reply = await client.callTool('typed', { count: 1, nested: { flag: 'yes' } })
    expect(reply.status).toBe(200)
    const error = errorOf(reply)
    expect(error.code).toBe(-32602)
    expect(error.message).toContain('/nested/flag')
  })

  it('refusesAMissingRawSchemaPropertyNamingIt', async () => {
    const error = errorOf(await client.callTool('raw-schema', { port: 80 }))
    expect(error.code).toBe(-32602)
    expect(error.message).toContain('host')
    expect(textOf(resultOf(await client.callTool('raw-schema', { host: 'a', port: 80 })))).toBe(
      '{"host":"a","port":80}',
    )
  })

  it('turnsAThrowingToolIntoASafeIsErrorResult', async () => {
    const reply = await client.callTool('boom')
    const result = resultOf(reply)
    expect(result.isError).toBe(true)
    expect(reply.raw).not.toContain('hunter2')
    expect(reply.raw).not.toContain('/srv/internal')
    expect(reply.raw).not.toMatch(/\bat .*\(.*:\d+:\d+\)/)
    expect(textOf(result).length).toBeGreaterThan(0)
    // The detail stays in the logs.
    expect(
      JSON.stringify(
        mainLogger.entries.map((e) => e.obj),
        errorReplacer,
      ),
    ).toContain('hunter2')
  })

  it('passesAToolErrorMessageThrough', async () => {
    const result = resultOf(await client.callTool('refuse'))
    expect(result.isError).toBe(true)
    expect(textOf(result)).toBe('Service checkout is locked for deploys.')
  })

  it('answersAFailedResultForAnOutputSchemaViolationWithoutLeaking', async () => {
    const reply = await client.callTool('bad-output')
    expect(reply.status).toBe(200)
    expect(resultOf(reply).isError).toBe(true)
    expect(reply.raw).not.toContain('hunter2')
  })

  it('refusesAnUnknownToolWithInvalidParams', async () => {
    const reply = await client.callTool('no-such-tool')
    expect(reply.status).toBe(200)
    expect(errorOf(reply).code).toBe(-32602)
  })
})

function errorReplacer(_key: string, value: unknown): unknown {
  return value instanceof Error ? { message: value.message, stack: value.stack } : value
}
