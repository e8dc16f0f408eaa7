/**
 * @module ops-view.e2e.test
 * The ops catalogue's view (MCP Apps) in a real browser: Debian's Chromium, headless, driven by
 * playwright-core. A host page built on the ext-apps host side (`AppBridge`) calls
 * `service_status` as a model would, reads the view the tool names, and renders it in a sandboxed
 * frame; the view shows the service and its history through tools it calls via the host, and
 * rolls it back: the host asks the same question a model's call gets, the person picks a version,
 * and one rollback is written. The same answer sent again rolls back nothing more. The browser
 * reaches nothing but the host page and its `/mcp` relay: every other request is refused, so the
 * view renders from its own page alone. Skipped, with the reason printed, where no Chromium is
 * installed (`apt-get install chromium`; `.ci/run` installs it).
 */
import { existsSync, mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { build as bundle } from 'esbuild'
import type { Browser, Page } from 'playwright-core'
import { build as buildView } from 'vite'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startOpsServer, type TestServer } from '../../examples/ops-catalogue/test/ops-test-server.ts'

const ROOT = resolve(import.meta.dirname, '../..')
const HOST = join(import.meta.dirname, 'fixtures/apps-host')
const VIEW = join(ROOT, 'examples/ops-catalogue/view')
const HOST_ORIGIN = 'http://host.test'
const CHROMIUM = [process.env.TESSERA_TEST_CHROMIUM, '/usr/bin/chromium', '/usr/bin/chromium-browser'].find(
  (path): path is string => path !== undefined && path !== '' && existsSync(path),
)
if (CHROMIUM === undefined)
  console.log('ops view e2e: skipped, no Chromium (apt-get install chromium, or set TESSERA_TEST_CHROMIUM)')

let browser: Browser
let server: TestServer
let hostScript: string
/** Every URL the browser asked for. */
const requested: string[] = []

beforeAll(async () => {
  if (CHROMIUM === undefined) return
  // Built from its sources into a folder of its own: the test needs no earlier build, and leaves
  // the one `npm run build` wrote alone.
  const built = mkdtempSync(join(tmpdir(), 'ops-view-'))
  await buildView({ configFile: join(VIEW, 'vite.config.ts'), logLevel: 'warn', build: { outDir: built } })
  server = await startOpsServer({ view: readFileSync(join(built, 'index.html'), 'utf8') })
  const host = await bundle({
    entryPoints: [join(HOST, 'host.ts')],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    write: false,
    logLevel: 'silent',
    // `@tessera/*` from their sources, through the root tsconfig's paths, as everywhere in the
    // tests; what core picks by platform, in its browser build.
    tsconfig: join(ROOT, 'tsconfig.json'),
    alias: {
      '#crypto': join(ROOT, 'packages/core/src/security/crypto-web.ts'),
      '#raw-schema': join(ROOT, 'packages/core/src/schema/raw-schema-cfworker.ts'),
      '#otel-loader': join(ROOT, 'packages/core/src/observation/telemetry/otel-loader-web.ts'),
      '#ip-address': join(ROOT, 'packages/core/src/security/http/ip-address-web.ts'),
    },
  })
  hostScript = host.outputFiles[0]!.text
  const { chromium } = await import('playwright-core')
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu'] })
}, 120_000)

afterAll(async () => {
  await browser?.close()
  await server?.close()
})

/** A page on the host, its `/mcp` relayed to the ops server, every other request refused. */
async function openHost(): Promise<Page> {
  const page = await browser.newPage()
  page.on('request', (request) => requested.push(request.url()))
  await page.route('**/*', async (route) => {
    const url = new URL(route.request().url())
    if (url.origin !== HOST_ORIGIN) return route.abort('blockedbyclient')
    if (url.pathname === '/')
      return route.fulfill({ contentType: 'text/html', body: readFileSync(join(HOST, 'index.html')) })
    if (url.pathname === '/host.js')
      return route.fulfill({ contentType: 'text/javascript', body: hostScript })
    if (url.pathname !== '/mcp') return route.fulfill({ status: 404 })
    const { origin: _origin, host: _host, ...headers } = route.request().headers()
    const reply = await fetch(server.url, { method: 'POST', headers, body: route.request().postData() ?? '' })
    const replyHeaders: Record<string, string> = {}
    reply.headers.forEach((value, name) => {
      replyHeaders[name] = value
    })
    return route.fulfill({ status: reply.status, headers: replyHeaders, body: await reply.text() })
  })
  await page.goto(`${HOST_ORIGIN}/?service=checkout`)
  return page
}

describe.skipIf(CHROMIUM === undefined)('ops view in Chromium', () => {
  it('rendersTheServiceFromItsOwnPageAndRollsBackOnceThroughTheSameQuestion', async () => {
    const page = await openHost()
    const view = page.frameLocator('iframe')
    await expect.poll(() => view.locator('#status').textContent(), { timeout: 15_000 }).toContain('running')
    expect(await view.locator('#title').textContent()).toContain('checkout')
    await expect.poll(() => view.locator('#history tbody tr').count(), { timeout: 15_000 }).toBeGreaterThan(1)
    expect(await page.locator('#error').textContent()).toBe('')

    await view.locator('#rollback').click()
    const question = page.locator('#question')
    await question.waitFor({ state: 'visible' })
    expect(await question.locator('p').textContent()).toContain('Choose the version to return to')
    const versions = await question.locator('option').allTextContents()
    const chosen = versions[1]!
    await question.locator('select').selectOption(chosen)
    await question.locator('button[value="accept"]').click()
    await expect
      .poll(() => view.locator('#outcome').textContent(), { timeout: 15_000 })
      .toContain(`to ${chosen}.`)
    expect(await server.rollbacks('checkout')).toBe(1)
    // The view refreshes the history once the rollback answered.
    await expect
      .poll(() => view.locator('#history tbody tr').first().textContent(), { timeout: 15_000 })
      .toContain(chosen)

    const again = (await page.evaluate(() =>
      (window as Window & { replayLastRound?: (tool: string) => Promise<unknown> }).replayLastRound?.(
        'rollback',
      ),
    )) as {
      structuredContent?: { outcome?: string; to?: string }
    }
    expect(again.structuredContent).toMatchObject({ outcome: 'rolled_back', to: chosen })
    expect(await server.rollbacks('checkout')).toBe(1)
    expect(requested.filter((url) => !url.startsWith(`${HOST_ORIGIN}/`))).toEqual([])
    await page.close()
  }, 60_000)

  it('offersTheViewOnlyToAHostAndTheToolsResultToAnyClient', async () => {
    const listed = await server.client.request<{ tools: { name: string; _meta?: unknown }[] }>('tools/list')
    const status = listed.result?.tools.find((tool) => tool.name === 'service_status')
    expect(status?._meta).toMatchObject({ ui: { resourceUri: 'ui://ops-catalogue/service' } })
    const plain = await server.client.callTool('service_status', { service: 'search' })
    expect(plain.result?.content?.[0]).toMatchObject({ type: 'text' })
  })
})
