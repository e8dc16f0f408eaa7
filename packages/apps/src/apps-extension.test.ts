/**
 * @module apps-extension.test
 * The MCP Apps extension as hosts and plain clients meet it: views served with their sandbox
 * settings, tools naming their view, app-only tools offered only to a host that declared the
 * extension, and views or tools that break a rule refused before anything is served.
 */
import { createServer, type McpServer } from '@tessera/core'
import type { ClientCapabilities } from '@tessera/core/protocol'
import { createTestClient } from '@tessera/core/testing'
import { describe, expect, it } from 'vitest'
import { APPS_EXTENSION, type AppsOptions, appsExtension, VIEW_MIME_TYPE, type ViewSource } from './index.ts'

const HTML = '<!doctype html><title>Status</title><p id="status">loading</p>'
const status: ViewSource = {
  uri: 'ui://ops/status',
  name: 'Service status',
  html: HTML,
  csp: { connectDomains: ['https://api.example.com'] },
  permissions: { clipboardWrite: true, camera: false },
}
const HOST = { extensions: { [APPS_EXTENSION]: { mimeTypes: [VIEW_MIME_TYPE] } } }

function serve(options: AppsOptions = { views: [status] }): McpServer {
  const server = createServer({ name: 'apps', version: '1.0.0', extensions: [appsExtension(options)] })
  server.tool(
    'service_status',
    { description: 'Status of every service', ui: { resourceUri: 'ui://ops/status' } },
    () => 'all healthy',
  )
  server.tool(
    'refresh_status',
    { description: 'Refresh the status view', ui: { resourceUri: 'ui://ops/status', visibility: ['app'] } },
    () => 'refreshed',
  )
  return server
}

async function names(server: McpServer, capabilities: ClientCapabilities): Promise<string[]> {
  const listed = (await createTestClient(server, { capabilities }).request('tools/list')) as {
    tools: { name: string }[]
  }
  return listed.tools.map((tool) => tool.name)
}

describe('apps extension', () => {
  it('servesEachViewAsAResourceWithItsSandboxSettings', async () => {
    const client = createTestClient(serve())
    expect((await client.request('server/discover')).capabilities).toMatchObject({
      extensions: { [APPS_EXTENSION]: {} },
    })
    const ui = { csp: { connectDomains: ['https://api.example.com'] }, permissions: { clipboardWrite: {} } }
    const { resources } = await client.request('resources/list')
    expect(resources).toEqual([
      { uri: 'ui://ops/status', name: 'Service status', mimeType: VIEW_MIME_TYPE, _meta: { ui } },
    ])
    const read = await client.readResource('ui://ops/status')
    expect(read.contents).toEqual([
      { uri: 'ui://ops/status', mimeType: VIEW_MIME_TYPE, text: HTML, _meta: { ui } },
    ])
  })

  it('aToolNamesItsViewAndAnsweresAClientWithoutTheExtensionWithItsOrdinaryResult', async () => {
    const plain = createTestClient(serve(), { capabilities: {} })
    const { tools } = (await plain.request('tools/list')) as { tools: { name: string; _meta?: unknown }[] }
    expect(tools).toEqual([
      expect.objectContaining({
        name: 'service_status',
        _meta: { ui: { resourceUri: 'ui://ops/status' }, 'ui/resourceUri': 'ui://ops/status' },
      }),
    ])
    expect(await plain.callTool('service_status')).toMatchObject({
      content: [{ type: 'text', text: 'all healthy' }],
    })
  })

  it('offersAnAppOnlyToolOnlyToAHostThatDeclaredTheExtension', async () => {
    const server = serve()
    expect(await names(server, {})).toEqual(['service_status'])
    expect(await names(server, HOST)).toEqual(['service_status', 'refresh_status'])
    await expect(
      createTestClient(server, { capabilities: {} }).callTool('refresh_status'),
    ).rejects.toMatchObject({
      code: -32602,
      message: "Invalid params: unknown tool 'refresh_status'.",
    })
    const host = createTestClient(server, { capabilities: HOST })
    expect(await host.callTool('refresh_status')).toMatchObject({
      content: [{ type: 'text', text: 'refreshed' }],
    })
    const listed = (await host.request('tools/list')) as { tools: { name: string; _meta?: unknown }[] }
    expect(listed.tools[1]?._meta).toEqual({
      ui: { resourceUri: 'ui://ops/status', visibility: ['app'] },
      'ui/resourceUri': 'ui://ops/status',
    })
  })

  it('refusesAToolThatNamesAViewNotGivenOrWhoCallsItWrongly', () => {
    const server = serve()
    expect(() =>
      server.tool('ghost', { description: 'x', ui: { resourceUri: 'ui://ops/none' } }, () => 'x'),
    ).toThrow("Tool 'ghost': ui.resourceUri 'ui://ops/none' names no view given to appsExtension.")
    const nobody = { resourceUri: 'ui://ops/status', visibility: [] }
    expect(() => server.tool('nobody', { description: 'x', ui: nobody }, () => 'x')).toThrow(
      "Tool 'nobody': ui.visibility must list 'model', 'app' or both.",
    )
    const typo = { resourceUri: 'ui://ops/status', visiblity: ['app'] }
    expect(() => server.tool('typo', { description: 'x', ui: typo as never }, () => 'x')).toThrow(/visiblity/)
  })

  it('refusesAViewThatBreaksARuleNamingItAndTheRule', () => {
    const refused = (view: Partial<ViewSource>) => () =>
      appsExtension({ views: [{ ...status, ...view } as ViewSource] })
    expect(refused({ uri: 'https://ops/status' })).toThrow(
      "View 'https://ops/status': its uri must be a ui:// URI.",
    )
    expect(refused({ html: '' })).toThrow("View 'ui://ops/status': needs its html.")
    expect(refused({ csp: { connectDomains: ["'unsafe-eval'"] } })).toThrow(
      "View 'ui://ops/status': csp.connectDomains holds ''unsafe-eval'', which is not an origin such as https://api.example.com.",
    )
    expect(refused({ csp: { scriptDomains: [] } as never })).toThrow(
      /csp.scriptDomains is not a CSP list of a view/,
    )
    expect(refused({ permissions: { usb: true } as never })).toThrow(
      /permissions.usb is not a permission of a view/,
    )
    expect(() => appsExtension({ views: [status, status] })).toThrow("View 'ui://ops/status' is given twice.")
  })
})
