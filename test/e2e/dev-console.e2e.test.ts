/**
 * @module dev-console.e2e.test
 * The development console in a real browser: Debian's Chromium, headless, driven by
 * playwright-core, against the ops demo run by `tessera dev`. The test opens the console, calls
 * the demo's `rollback` from the generated form, answers its elicitation in the page, and sees one
 * row with two rounds whose single-use record is done; it sends the same answer again and sees the
 * record marked replayed. Skipped, with the reason printed, where no Chromium is installed
 * (`apt-get install chromium`; `.ci/run` installs it). `TESSERA_CONSOLE_SCREENSHOT=<file>` saves
 * the page at the end (the picture in docs/guides/dev-console.md).
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { LoggedProcess } from '../helpers/logged-process.ts'

const ROOT = resolve(import.meta.dirname, '../..')
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

describe.skipIf(CHROMIUM === undefined)('dev console in Chromium', () => {
  const data = mkdtempSync(join(tmpdir(), 'tessera-console-e2e-'))
  let dev: LoggedProcess
  let consoleUrl: string
  let browser: import('playwright-core').Browser

  beforeAll(async () => {
    dev = new LoggedProcess(
      join(ROOT, 'packages/cli/src/bin.ts'),
      ['dev', join(ROOT, 'examples/ops-catalogue/src/main.ts'), '--port', '0'],
      { TESSERA_DATA_DIR: data, NODE_ENV: 'development' },
    )
    consoleUrl = await printed(dev, /Dev console on (\S+)/, 60_000)
    const { chromium } = await import('playwright-core')
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu'] })
  }, 90_000)

  afterAll(async () => {
    await browser?.close()
    await dev?.stop()
    rmSync(data, { recursive: true, force: true })
  })

  it('threadsARollbackAskedAndAnsweredInThePageUnderOneRowAndMarksItsReplay', async () => {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } })
    await page.goto(consoleUrl)
    await page.getByText('live').waitFor()

    await page.getByLabel('Tool, resource or prompt').selectOption('tool\u0000rollback')
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
})
