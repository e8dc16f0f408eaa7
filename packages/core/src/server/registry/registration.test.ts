/**
 * @module registration.test
 * Misuse is refused when it happens, with a message that names the tool, prompt, resource or
 * option at fault: never a silent replacement, never a server that registers and then fails every
 * call, never an error that hides what was wrong.
 */
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { z as z3 } from 'zod/v3'
import { silentLogger } from '../../../../../test/helpers/silent-logger.ts'
import { unchecked } from '../../../../../test/helpers/unchecked.ts'
import { createServer, type ServerOptions } from '../create-server.ts'

const app = (options: Partial<ServerOptions> = {}) =>
  createServer({ name: 'misuse', version: '1.0.0', logger: silentLogger, ...options })

describe('one name, one thing', () => {
  it('refusesASecondToolWithTheSameName', () => {
    const server = app().tool('deploy', { description: 'first' }, () => 'one')
    expect(() => server.tool('deploy', { description: 'second' }, () => 'two')).toThrow(
      "Tool 'deploy' is already registered; remove it first (removeTool) to replace it.",
    )
  })

  it('replacesAToolOnlyAfterItWasRemoved', () => {
    const server = app().tool('deploy', { description: 'first' }, () => 'one')
    expect(server.removeTool('deploy')).toBe(true)
    expect(() => server.tool('deploy', { description: 'second' }, () => 'two')).not.toThrow()
  })

  it('refusesASecondPromptWithTheSameName', () => {
    const server = app().prompt('triage', { description: 'first' }, () => ({ messages: [] }))
    expect(() => server.prompt('triage', { description: 'second' }, () => ({ messages: [] }))).toThrow(
      "Prompt 'triage' is already registered",
    )
  })

  it('refusesASecondResourceOrTemplateAtTheSameUri', () => {
    const read = (uri: string) => ({ contents: [{ uri, text: 'x' }] })
    const server = app().resource('ops://catalogue', { name: 'catalogue' }, read)
    expect(() => server.resource('ops://catalogue', { name: 'again' }, read)).toThrow(
      "Resource 'ops://catalogue' is already registered",
    )
    server.resourceTemplate('ops://runbooks/{service}', { name: 'runbooks' }, (uri) => read(uri))
    expect(() =>
      server.resourceTemplate('ops://runbooks/{service}', { name: 'again' }, (uri) => read(uri)),
    ).toThrow("Resource template 'ops://runbooks/{service}' is already registered")
  })
})

describe('schemas that cannot work are refused at registration', () => {
  it('refusesAPromptArgumentThatCannotAcceptAString', () => {
    expect(() =>
      app().prompt('count', { description: 'x', args: z.object({ n: z.number() }) }, () => ({
        messages: [],
      })),
    ).toThrow(/^Prompt 'count': argument 'n' must accept a string \(prompt arguments arrive as strings\)/)
  })

  it('acceptsStringsEnumsAndCoercionsAsPromptArguments', () => {
    const args = z.object({
      service: z.string(),
      level: z.enum(['low', 'high']).optional(),
      hours: z.coerce.number().default(24),
    })
    expect(() => app().prompt('triage', { description: 'x', args }, () => ({ messages: [] }))).not.toThrow()
  })

  it('namesAZod3SchemaInsteadOfFailingToCloneIt', () => {
    const input = unchecked<z.ZodObject>(z3.object({ name: z3.string() }))
    expect(() => app().tool('greet', { description: 'x', input }, () => 'hi')).toThrow(
      "Tool 'greet': input is a zod 3 schema; Tessera needs zod 4",
    )
  })

  it('namesTheToolOfAnInvalidJsonSchema', () => {
    const input = { type: 'object', properties: { n: { type: 'not-a-type' } } }
    expect(() => app().tool('broken', { description: 'x', input }, () => 'x')).toThrow(
      /^Tool 'broken': input is not a valid JSON Schema: /,
    )
  })

  it('refusesAnOutputSchemaThatIsNotAnObject', () => {
    const handler = () => ({ content: [], structuredContent: 1 })
    expect(() => app().tool('count', { description: 'x', output: z.number() }, handler)).toThrow(
      `Tool 'count': output schema must have type "object".`,
    )
  })
})

describe('options are checked when the server is created', () => {
  it('refusesAnUnknownOptionAndSuggestsTheClosestName', () => {
    const options = (extra: Record<string, unknown>): ServerOptions => ({ name: 'x', version: '1', ...extra })
    expect(() => createServer(options({ replay: {} }))).toThrow("createServer: unknown option 'replay'.")
    expect(() => createServer(options({ handshake: { sessions: {} } }))).toThrow(
      "createServer: unknown option 'handshake.sessions'.",
    )
    expect(() => createServer(options({ colour: 'blue' }))).toThrow("createServer: unknown option 'colour'.")
    expect(() => createServer(options({ pagesize: 10 }))).toThrow(
      "createServer: unknown option 'pagesize' (did you mean 'pageSize'?).",
    )
  })

  it('namesTheMethodsAStoreLacks', () => {
    const replay = { claim() {}, renew() {} }
    expect(() => app({ stores: unchecked({ replay }) })).toThrow(
      'createServer: stores.replay has no complete(), release(), inspect(), close().',
    )
  })

  it('refusesABadLease', () => {
    expect(() => app({ singleUse: { leaseMs: 0 } })).toThrow('singleUse.leaseMs must be a positive integer.')
  })
})
