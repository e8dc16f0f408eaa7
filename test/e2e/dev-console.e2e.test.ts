/**
 * @module dev-console.e2e.test
 * The development console in a real browser: Debian's Chromium, headless, driven by
 * playwright-core, against servers run by `tessera dev`. Against the ops demo, the test calls
 * `rollback` from the generated form, answers its elicitation in the page, and sees one row with
 * two rounds whose single-use record is done; it sends the same answer again and sees the record
 * marked replayed. Against a server behind OAuth, the page first says the server refused it (401)
 * and to paste a token; with a pasted token a call shows its result, a call lacking a scope says
 * which one, and a resource template's form reads the resource it names; the token shows nowhere
 * in the page. Skipped, with the reason printed, where no Chromium is installed
 * (`apt-get install chromium`; `.ci/run` installs it). `TESSERA_CONSOLE_SCREENSHOT=<file>` saves
 * the demo's page at the end (the picture in docs/guides/dev-console.md). The demo's runbook
 * skills are listed and read. A tool's view (MCP Apps) renders under its result, in a frame of an
 * opaque origin under the view's CSP, and rolls the service back through a question the console
 * asks under the frame. Under `--rate-limit 2/60`, the third call is refused: the page says when
 * to try again, and the traffic names the limit and counts its refusal.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { freePort, LoggedProcess } from '../helpers/logged-process.ts'
import { startAuthority, type TestAuthority } from '../helpers/oauth.ts'

const ROOT = resolve(import.meta.dirname, '../..')
const PICKER = 'Tool, resource, prompt or skill'
const CHROMIUM = [process.env.TESSERA_TEST_CHROMIUM, '/usr/bin/chromium', '/usr/bin/chromium-browser'].find(
  (path): path is string => path !== undefined && path !== '' && existsSync(path),
)
if (CHROMIUM === undefined)
  console.log(
    'dev console e2e: skipped, no Chromium (apt-get install chromium, or set TESSERA_TEST_CHROMIUM)',
  )

/** The first capture of `pattern` in what the process printed, once it has. */
async function printed(process: LoggedProcess, pattern: RegExp, timeoutMs: number): Promise<string> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const match = pattern.exec(process.stderr)
    if (match) return match[1]!
    if (process.child.exitCode !== null || Date.now() > deadline)
      throw new Error(
        `not printed: ${pattern} (${process.child.exitCode !== null ? 'exited' : 'timed out'}):\n${process.stderr}`,
      )
    await new Promise((wake) => setTimeout(wake, 100))
  }
}

/** `tessera dev` running `entry` (with `args` of its own), until the URL of its console is printed. */
async function startDev(
  entry: string,
  port: string,
  env: Record<string, string>,
  args: string[] = [],
): Promise<{ dev: LoggedProcess; consoleUrl: string }> {
  const devArgs = ['dev', entry, '--port', port, ...(args.length > 0 ? ['--', ...args] : [])]
  const dev = new LoggedProcess(join(ROOT, 'packages/cli/src/bin.ts'), devArgs, {
    NODE_ENV: 'development',
    ...env,
  })
  return { dev, consoleUrl: await printed(dev, /Dev console on (\S+)/, 60_000) }
}

let browser: Browser
beforeAll(async () => {
  if (CHROMIUM === undefined) return
  const { chromium } = await import('playwright-core')
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu'] })
}, 30_000)
afterAll(async () => {
  await browser?.close()
})

describe.skipIf(CHROMIUM === undefined)('dev console in Chromium', () => {
  const data = mkdtempSync(join(tmpdir(), 'tessera-console-e2e-'))
  let dev: LoggedProcess
  let consoleUrl: string

  beforeAll(async () => {
    ;({ dev, consoleUrl } = await startDev(join(ROOT, 'examples/ops-catalogue/src/main.ts'), '0', {
      TESSERA_DATA_DIR: data,
    }))
  }, 90_000)

  afterAll(async () => {
    await dev?.stop()
    rmSync(data, { recursive: true, force: true })
  })

  it('threadsARollbackAskedAndAnsweredInThePageUnderOneRowAndMarksItsReplay', async () => {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } })
    await page.goto(consoleUrl)
    await page.getByText('live').waitFor()

    await page.getByLabel(PICKER).selectOption('tool\u0000rollback')
    await page.getByLabel('service').fill('checkout')
    await page.getByRole('button', { name: 'Call' }).click()

    // The demo asks which version to return to: the question is a form in the page.
    const question = page.getByRole('group', { name: /Roll .* back from/ })
    await question.waitFor()
    await question.getByRole('button', { name: 'Accept' }).click()
    await page
      .getByRole('status')
      .getByText(/rolled back|Rolled/i)
      .first()
      .waitFor({ timeout: 20_000 })

    const row = page.locator('tr.call', { hasText: 'rollback' })
    await expect.poll(() => row.count()).toBe(1)
    await expect.poll(() => row.locator('td.rounds').textContent()).toBe('2')
    await expect.poll(() => row.locator('td.record').textContent()).toBe('done')

    await page.getByRole('button', { name: 'Send the same answer again' }).click()
    await expect
      .poll(() => row.locator('td.record').textContent(), { timeout: 10_000 })
      .toBe('done, replayed')
    await expect.poll(() => row.locator('td.rounds').textContent()).toBe('3')

    const screenshot = process.env.TESSERA_CONSOLE_SCREENSHOT
    if (screenshot) await page.screenshot({ path: screenshot, fullPage: true })
    await page.close()
  }, 60_000)

  it('rendersAToolsViewUnderItsResultAndRollsBackThroughIt', async () => {
    const page = await browser.newPage({ viewport: { width: 1400, height: 1200 } })
    await page.goto(consoleUrl)
    await page.getByText('live').waitFor()
    await page.getByLabel(PICKER).selectOption('tool\u0000service_status')
    await page.getByLabel('service').fill('search')
    await page.getByRole('button', { name: 'Call' }).click()

    const region = page.getByRole('region', { name: 'The view of service_status' })
    const view = region.frameLocator('iframe').frameLocator('iframe')
    await expect.poll(() => view.locator('#title').textContent(), { timeout: 15_000 }).toContain('search')
    await expect.poll(() => view.locator('#history tbody tr').count(), { timeout: 15_000 }).toBeGreaterThan(1)

    // The sandbox page and the view each run in an opaque origin, and the view reaches nothing.
    const frames = page.frames().filter((frame) => frame !== page.mainFrame())
    expect(frames).toHaveLength(2)
    for (const frame of frames) expect(await frame.evaluate(() => window.origin)).toBe('null')
    const inner = frames.find((frame) => frame.url() === 'about:srcdoc')!
    const violated = await inner.evaluate(
      () =>
        new Promise<string>((found) => {
          document.addEventListener('securitypolicyviolation', (event) => found(event.effectiveDirective))
          setTimeout(() => found('no violation'), 5000)
          void fetch('/_tessera/events').catch(() => undefined)
        }),
    )
    expect(violated).toBe('connect-src')

    const rollbacks = page.locator('tr.call', { hasText: 'rollback' }).filter({ hasText: 'done' })
    const before = await rollbacks.count()
    await view.locator('#rollback').click()
    const question = region.getByRole('group', { name: /Choose the version to return to/ })
    await question.waitFor()
    await question.getByRole('button', { name: 'Accept' }).click()
    await expect
      .poll(() => view.locator('#outcome').textContent(), { timeout: 15_000 })
      .toMatch(/^Rolled back from \S+ to \S+\.$/)
    await expect.poll(() => rollbacks.count()).toBe(before + 1)
    await page.close()
  }, 60_000)

  it('listsTheRunbookSkillsAndReadsOne', async () => {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } })
    await page.goto(consoleUrl)
    await page.getByText('live').waitFor()
    await page.getByLabel(PICKER).selectOption('skill\u0000skill://runbooks/checkout/SKILL.md')
    await page.getByText('What to do when Checkout API misbehaves', { exact: false }).first().waitFor()
    await page.getByRole('button', { name: 'Read SKILL.md' }).click()
    await page
      .getByRole('status')
      .getByText(/name: checkout/)
      .first()
      .waitFor()
    await page.close()
  }, 60_000)
})

describe.skipIf(CHROMIUM === undefined)('dev console of the ops demo under a rate limit in Chromium', () => {
  const data = mkdtempSync(join(tmpdir(), 'tessera-console-limit-e2e-'))
  let dev: LoggedProcess
  let consoleUrl: string

  beforeAll(async () => {
    ;({ dev, consoleUrl } = await startDev(
      join(ROOT, 'examples/ops-catalogue/src/main.ts'),
      '0',
      { TESSERA_DATA_DIR: data },
      ['--rate-limit', '2/60'],
    ))
  }, 90_000)

  afterAll(async () => {
    await dev?.stop()
    rmSync(data, { recursive: true, force: true })
  })

  it('showsTheLimitThatRefusedACallAndSaysWhenToTryAgain', async () => {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } })
    await page.goto(consoleUrl)
    await page.getByText('live').waitFor()
    await page.getByLabel(PICKER).selectOption('tool\u0000service_status')
    await page.getByLabel('service').fill('checkout')
    for (let call = 1; call <= 3; call++) await page.getByRole('button', { name: 'Call' }).click()

    const refusal = page
      .getByRole('status')
      .filter({ hasText: 'Calling service_status was refused: HTTP 429' })
    await refusal.getByText(/A rate limit refused it: try again in \d+ s\./).waitFor({ timeout: 20_000 })
    const limit = 'tools/call for every caller is limited to 2 per 60000 ms'
    await page.getByText(/· 1 refused by rate limits/).waitFor()
    const row = page.locator('table.rate-limits tbody tr')
    await expect.poll(() => row.allTextContents()).toEqual([`${limit}method1`])
    await page.getByText(new RegExp(`rate limited: ${limit}, retry in \\d+ s`)).waitFor()
    await page.close()
  }, 60_000)
})

describe.skipIf(CHROMIUM === undefined)('dev console of a server behind OAuth in Chromium', () => {
  let authority: TestAuthority
  let dev: LoggedProcess
  let consoleUrl: string

  beforeAll(async () => {
    const port = await freePort()
    authority = await startAuthority(`http://127.0.0.1:${port}/mcp`)
    ;({ dev, consoleUrl } = await startDev(
      join(ROOT, 'test/e2e/fixtures/protected-notes/server.ts'),
      String(port),
      { TESSERA_E2E_ISSUER: authority.issuer, TESSERA_E2E_JWKS: authority.jwksUrl.href },
    ))
  }, 90_000)

  afterAll(async () => {
    await dev?.stop()
    await authority?.close()
  })

  it('saysTheServerWantsATokenThenCallsAndReadsWithAPastedOne', async () => {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } })
    await page.goto(consoleUrl)
    await page.getByText('live').waitFor()
    const refusal = page.getByRole('status').filter({ hasText: 'server/discover was refused' })
    await refusal.getByText('HTTP 401 Unauthorized').waitFor()
    await refusal.getByText('Unauthorized: an access token is required.').waitFor()
    await refusal.getByText(/needs an access token: paste one in “Access token” above/).waitFor()
    // Refused before it was read, the request is a POST with no method in the traffic.
    await page.locator('tr.call td.bad', { hasText: /^401/ }).first().waitFor()

    const token = await authority.mint({ scope: 'notes:read', sub: 'ann' })
    await page.getByLabel('Access token').fill(token)
    await page.getByRole('button', { name: 'Use token' }).click()
    await page.getByText('Requests carry Authorization: Bearer …').waitFor()
    await expect.poll(() => page.getByLabel('Access token').inputValue()).toBe('')

    await page.getByLabel(PICKER).selectOption('tool\u0000status')
    await page.getByLabel('service').fill('checkout')
    await page.getByRole('button', { name: 'Call' }).click()
    await page.getByRole('status').getByText('checkout is green').waitFor()
    await expect.poll(() => page.locator('tr.call', { hasText: 'ann' }).count()).toBeGreaterThan(0)

    await page.getByLabel(PICKER).selectOption('tool\u0000restart')
    await page.getByLabel('service').fill('checkout')
    await page.getByRole('button', { name: 'Call' }).click()
    const scope = page.getByRole('status').filter({ hasText: 'Calling restart was refused: HTTP 403' })
    await scope.getByText(/Paste a token with the scope notes:write/).waitFor()

    await page.getByLabel(PICKER).selectOption('template\u0000notes://teams/{team}{?day}')
    await page.getByLabel('team').fill('site reliability')
    await page.getByLabel('day').fill('2026-12-02')
    await page.getByRole('button', { name: 'Read' }).click()
    await page.getByRole('status').getByText('notes of site reliability for 2026-12-02').waitFor()
    await page.getByText('notes://teams/site%20reliability?day=2026-12-02').first().waitFor()

    // Kept for this tab, shown nowhere: not in the page, not in the traffic rows.
    expect(await page.evaluate(() => sessionStorage.getItem('tessera-console-token'))).toBe(token)
    expect(await page.content()).not.toContain(token)
    await page.close()
  }, 60_000)
})
