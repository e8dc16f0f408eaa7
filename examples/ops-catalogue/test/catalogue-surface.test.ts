/**
 * @module catalogue-surface.test
 * The server's wire surface over real HTTP: names, schemas, cache hints, resources, the prompt
 * and completion, and that what the tools report follows what the rollback did.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { answer, type McpClient, type ToolResult, textOf } from './mcp-client.ts'
import { startOpsServer, type TestServer } from './ops-test-server.ts'

let server: TestServer
let client: McpClient
beforeAll(async () => {
  server = await startOpsServer()
  client = server.client
})
afterAll(() => server.close())

describe('discovery and lists', () => {
  it('discoverNamesTheServerAndItsCapabilities', async () => {
    const reply = await client.discover()
    expect(reply.status).toBe(200)
    expect(reply.result).toMatchObject({
      resultType: 'complete',
      capabilities: { tools: {}, resources: {}, prompts: {}, completions: {} },
      _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'ops-catalogue' } },
    })
    expect(reply.result?.supportedVersions).toContain('2026-07-28')
  })

  it('listsTheThreeToolsCacheablePublicFor60Seconds', async () => {
    const reply = await client.listTools()
    expect(reply.result?.tools.map((t) => t.name)).toEqual([
      'service_status',
      'deployment_history',
      'rollback',
    ])
    expect(reply.result).toMatchObject({ ttlMs: 60_000, cacheScope: 'public' })
  })

  it('anOptionalParameterIsNotRequiredInTheSchema', async () => {
    const tools = (await client.listTools()).result!.tools
    const schema = (name: string) =>
      tools.find((t) => t.name === name)!.inputSchema as {
        required?: string[]
        properties: Record<string, unknown>
      }
    expect(schema('rollback').required).toEqual(['service'])
    expect(Object.keys(schema('rollback').properties)).toEqual(['service', 'version'])
    expect(schema('deployment_history').required).toEqual(['service'])
    expect(Object.keys(schema('deployment_history').properties)).toEqual(['service', 'limit'])
    // And the omitted parameter really is accepted: the call reaches the handler, which asks.
    const ask = await client.callTool('rollback', { service: 'checkout' })
    expect(ask.result?.resultType).toBe('input_required')
  })

  it('listsTheCatalogueResourceTheRunbookSkillsAndTheRunbooksTemplate', async () => {
    const resources = await client.request<{ resources: Array<{ uri: string }> }>('resources/list')
    const uris = resources.result?.resources.map((r) => r.uri) ?? []
    expect(uris.filter((uri) => !uri.startsWith('skill://'))).toEqual(['ops://catalogue'])
    expect(uris.filter((uri) => uri.startsWith('skill://'))).toHaveLength(12)
    const templates = await client.request<{ resourceTemplates: Array<{ uriTemplate: string }> }>(
      'resources/templates/list',
    )
    expect(templates.result?.resourceTemplates.map((t) => t.uriTemplate)).toEqual([
      'ops://runbooks/{service}',
    ])
    const prompts = await client.request<{ prompts: Array<{ name: string; arguments: unknown[] }> }>(
      'prompts/list',
    )
    expect(prompts.result?.prompts).toMatchObject([
      { name: 'incident_triage', arguments: [{ name: 'service', required: true }] },
    ])
  })
})

describe('tools', () => {
  it('serviceStatusReportsOwnerHealthTheCurrentVersionAndTheRunbooksLink', async () => {
    const reply = await client.callTool('service_status', { service: 'search' })
    const result = reply.result as ToolResult
    expect(result.structuredContent).toMatchObject({
      service: 'search',
      tier: 2,
      owner: { team: 'discovery' },
      health: { status: 'degraded' },
      currentVersion: '3.10.0',
      runbooks: 'ops://runbooks/search',
    })
    expect(result.content?.[1]).toMatchObject({ type: 'resource_link', uri: 'ops://runbooks/search' })
  })

  it('anUnknownServiceIsAReadableToolErrorNamingTheKnownOnes', async () => {
    const reply = await client.callTool('service_status', { service: 'chekout' })
    expect(reply.result?.isError).toBe(true)
    expect(textOf(reply.result)).toContain("Unknown service 'chekout'. Known services: checkout,")
  })

  it('deploymentHistoryIsNewestFirstAndHonoursLimit', async () => {
    const all = (await client.callTool('deployment_history', { service: 'search' })).result!
      .structuredContent as {
      total: number
      deployments: Array<{ seq: number; kind: string; version: string }>
    }
    expect(all.total).toBe(6)
    expect(all.deployments.map((d) => d.seq)).toEqual([6, 5, 4, 3, 2, 1])
    expect(all.deployments[2]).toMatchObject({ kind: 'rollback', version: '3.9.0' })
    const two = (await client.callTool('deployment_history', { service: 'search', limit: 2 })).result!
      .structuredContent as {
      deployments: unknown[]
    }
    expect(two.deployments).toHaveLength(2)
    const bad = await client.callTool('deployment_history', { service: 'search', limit: 0 })
    expect(bad.error?.code).toBe(-32602)
  })

  it('whatTheToolsReportReflectsWhatWasDone', async () => {
    const ask = (await client.callTool('rollback', { service: 'reporting' })).result as ToolResult
    await client.callTool(
      'rollback',
      { service: 'reporting' },
      {
        inputResponses: { version: answer('accept', { version: '1.19.0' }) },
        requestState: ask.requestState,
      },
    )
    const status = (await client.callTool('service_status', { service: 'reporting' })).result!
    expect(status.structuredContent).toMatchObject({
      currentVersion: '1.19.0',
      lastChange: { kind: 'rollback' },
    })
    expect(textOf(status)).toContain('Current version: 1.19.0, rolled back from 1.19.1')
    const history = (await client.callTool('deployment_history', { service: 'reporting', limit: 1 })).result!
    expect(textOf(history)).toContain('rollback to 1.19.0 (from 1.19.1)')
    const catalogue = await client.readResource('ops://catalogue')
    const services = JSON.parse(catalogue.result!.contents[0]!.text!).services as Array<{
      id: string
      currentVersion: string
    }>
    expect(services.find((s) => s.id === 'reporting')?.currentVersion).toBe('1.19.0')
    // The next ask offers only what came before 1.19.0.
    const next = (await client.callTool('rollback', { service: 'reporting' })).result as ToolResult
    expect(next.inputRequests?.version?.params).toMatchObject({
      requestedSchema: { properties: { version: { enum: ['1.18.0'] } } },
    })
  })
})

describe('resources, prompt and completion', () => {
  it('theCatalogueReadListsEveryServiceAndKeepsThePrivateTtlMs0Default', async () => {
    const reply = await client.readResource('ops://catalogue')
    expect(reply.result).toMatchObject({ ttlMs: 0, cacheScope: 'private' })
    const content = reply.result!.contents[0]!
    expect(content.mimeType).toBe('application/json')
    expect(JSON.parse(content.text!).services).toHaveLength(12)
  })

  it('readsTheRunbooksOfAServiceAsMarkdownAndAnUnknownOneIsNotFound', async () => {
    const reply = await client.readResource('ops://runbooks/checkout')
    expect(reply.result?.contents[0]).toMatchObject({
      uri: 'ops://runbooks/checkout',
      mimeType: 'text/markdown',
    })
    expect(reply.result?.contents[0]?.text).toContain('# Elevated 5xx on /orders')
    const missing = await client.readResource('ops://runbooks/nope')
    expect(missing.error).toMatchObject({ code: -32602, data: { uri: 'ops://runbooks/nope' } })
  })

  it('servesEachServicesRunbooksAsASkillWhoseBodyIsTheRunbooksResource', async () => {
    const discovered = await client.discover()
    expect(discovered.result?.capabilities).toMatchObject({
      extensions: { 'io.modelcontextprotocol/skills': { directoryRead: true } },
    })
    const listed = await client.request<{
      skills: Array<{ uri: string; frontmatter: Record<string, unknown> }>
    }>('skills/list')
    const checkout = listed.result?.skills.find((skill) => skill.uri === 'skill://runbooks/checkout/SKILL.md')
    expect(checkout?.frontmatter).toMatchObject({
      name: 'checkout',
      description: expect.stringContaining('Elevated 5xx on /orders'),
      metadata: { service: 'checkout', tier: 1 },
    })
    const skill = await client.readResource('skill://runbooks/checkout/SKILL.md')
    const runbooks = await client.readResource('ops://runbooks/checkout')
    const body = skill.result?.contents[0]?.text ?? ''
    expect(body.startsWith('---\nname: checkout\n')).toBe(true)
    expect(body.endsWith(runbooks.result?.contents[0]?.text ?? 'missing')).toBe(true)
  })

  it('incidentTriagePutsStatusRecentChangesAndTheRunbooksInTheMessages', async () => {
    const reply = await client.getPrompt('incident_triage', { service: 'edge-gateway' })
    const [intro, runbooks] = reply.result!.messages
    expect(intro?.content.text).toContain('triage an incident on Edge Gateway (edge-gateway)')
    expect(intro?.content.text).toContain('deployed 1.32.1-acme.2')
    expect(runbooks?.content).toMatchObject({
      type: 'resource',
      resource: { uri: 'ops://runbooks/edge-gateway' },
    })
    const unknown = await client.getPrompt('incident_triage', { service: 'nope' })
    expect(unknown.error).toMatchObject({ code: -32602, message: "Invalid params: unknown service 'nope'." })
  })

  it('completesTheServiceOfThePromptAndOfTheRunbooksTemplate', async () => {
    const prompt = await client.complete(
      { type: 'ref/prompt', name: 'incident_triage' },
      { name: 'service', value: 'p' },
    )
    expect(prompt.result?.completion.values).toEqual([
      'payments-gateway',
      'postgres-orders',
      'catalog-api',
      'shipping-rates',
      'reporting',
    ])
    const template = await client.complete(
      { type: 'ref/resource', uri: 'ops://runbooks/{service}' },
      { name: 'service', value: 'in' },
    )
    expect(template.result?.completion.values).toEqual(['inventory', 'shipping-rates', 'reporting'])
  })
})
