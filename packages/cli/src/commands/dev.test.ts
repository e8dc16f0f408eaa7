/**
 * @module dev.test
 * `tessera dev` as a process on a project in a temporary folder: the server's own line saying
 * where it listens shows once (dev adds none of its own, only where the console is), the
 * server's JSON log lines are rendered for a person, the server restarts when a source file
 * changes (the new code answers, given the same arguments), and stops on SIGINT.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { freePort } from '../../../../test/helpers/logged-process.ts'
import { McpHttpClient, resultOf, textOf } from '../../../../test/helpers/mcp-http.ts'
import { BIN } from '../run-cli.fixture.ts'

const CORE = new URL('../../../core/src/index.ts', import.meta.url).pathname
const HTTP = new URL('../../../core/src/transports/http/index.ts', import.meta.url).pathname
const project = mkdtempSync(join(tmpdir(), 'tessera-dev-'))
afterAll(() => rmSync(project, { recursive: true, force: true }))

function writeEntry(answer: string): void {
  writeFileSync(
    join(project, 'server.ts'),
    `import { createServer } from ${JSON.stringify(CORE)}
import { listen } from ${JSON.stringify(HTTP)}
const app = createServer({ name: 'dev-fixture', version: '1.0.0' })
app.tool('version', { description: 'Which code answers' }, () => ${JSON.stringify(answer)})
console.error(JSON.stringify({ level: 30, time: Date.now(), msg: 'serving ${answer} with ' + process.argv.slice(2).join(' ') }))
const running = await listen(app, { port: Number(process.env.PORT) })
console.error(\`MCP server listening on \${running.url}\`)
`,
  )
}

async function until(read: () => string, pattern: RegExp, ms = 20_000): Promise<RegExpExecArray> {
  const deadline = Date.now() + ms
  for (;;) {
    const found = pattern.exec(read())
    if (found) return found
    if (Date.now() > deadline) throw new Error(`never saw ${pattern}:\n${read()}`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

describe('tessera dev', () => {
  it('showsTheListeningLineOnceRendersLogsRestartsOnChangeAndStopsOnSigint', async () => {
    writeFileSync(join(project, 'package.json'), '{"type":"module"}')
    writeEntry('v1')
    const port = await freePort()
    const cli: ChildProcess = spawn(
      process.execPath,
      [
        '--import',
        import.meta.resolve('tsx'),
        BIN,
        'dev',
        'server.ts',
        '--port',
        String(port),
        '--',
        '--flag',
        'x',
      ],
      {
        cwd: project,
        env: { ...process.env, NO_COLOR: '1' },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    )
    let output = ''
    cli.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      output += chunk
    })
    cli.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
      output += chunk
    })
    const exited = new Promise<number | null>((resolve) => cli.once('exit', resolve))
    try {
      const url = `http://127.0.0.1:${port}/mcp`
      await until(() => output, new RegExp(`Dev console on http://127.0.0.1:${port}/_tessera/`))
      await until(() => output, new RegExp(`MCP server listening on ${url}`))
      expect(output.split('listening on')).toHaveLength(2)
      // What follows -- is the server file's own.
      expect(output).toMatch(/INFO.*serving v1 with --flag x/)
      expect(output).not.toContain('"msg":"serving v1"')
      const client = new McpHttpClient(url)
      expect(textOf(resultOf(await client.callTool('version')))).toBe('v1')

      writeEntry('v2')
      await until(() => output, /server\.ts changed: restarting/)
      await until(() => output, /serving v2 with --flag x/)
      await until(() => output.slice(output.indexOf('restarting')), /Dev console on/)
      await until(() => output.slice(output.indexOf('restarting')), /MCP server listening on/)
      expect(output.split('listening on')).toHaveLength(3)
      expect(textOf(resultOf(await client.callTool('version')))).toBe('v2')
    } finally {
      cli.kill('SIGINT')
    }
    expect(await exited).toBe(0)
  }, 60_000)
})
