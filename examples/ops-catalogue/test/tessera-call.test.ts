/**
 * @module tessera-call.test
 * `tessera call … rollback` against the running demo, in a real terminal (tmux), in both eras:
 * the person accepts, picks the second version offered, and the deployment log then holds
 * exactly one rollback more of that service, to that version.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { hasTmux, TmuxTerminal } from '../../../test/helpers/tmux-terminal.ts'
import { McpClient, type ToolResult } from './mcp-client.ts'
import { freePort, OpsProcess } from './spawn-ops.ts'

const BIN = fileURLToPath(new URL('../../../packages/cli/src/bin.ts', import.meta.url))
if (!hasTmux)
  process.stderr.write('tessera-call.test: skipped, tmux is not installed (apt-get install tmux)\n')

describe.skipIf(!hasTmux)('tessera call rollback in a terminal', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ops-catalogue-tessera-call-'))
  let ops: OpsProcess
  let url: string

  beforeAll(async () => {
    const port = await freePort()
    ops = new OpsProcess(['--data', dir, '--rollback-seconds', '0'], { PORT: String(port) })
    await ops.waitForEvent('listening')
    url = `http://127.0.0.1:${port}/mcp`
  }, 30_000)

  afterAll(async () => {
    await ops?.stop()
    rmSync(dir, { recursive: true, force: true })
  })

  /** The rollbacks of `service` in the deployment log, newest first. */
  async function rollbacksOf(service: string): Promise<Array<{ version: string }>> {
    const reply = await new McpClient(url).callTool('deployment_history', { service, limit: 50 })
    const entries = ((reply.result as ToolResult).structuredContent?.deployments ?? []) as Array<{
      kind: string
      version: string
    }>
    return entries.filter((e) => e.kind === 'rollback')
  }

  it.each([
    ['modern', 'search'],
    ['handshake', 'inventory'],
  ])(
    'asksRollsBackOnceAndExits0InThe%sEra',
    async (era, service) => {
      const before = (await rollbacksOf(service)).length
      let second = ''
      const terminal = new TmuxTerminal(
        `NO_COLOR=1 node --import tsx ${BIN} call ${url} rollback --arg service=${service} --era ${era}`,
      )
      try {
        await terminal.waitFor('Answer?')
        terminal.keys('Enter')
        const choices = await terminal.waitFor(/Version.*\n(?:.*\n)*?.*○ (\S+)/)
        second = /○ (\S+)/.exec(choices.slice(choices.lastIndexOf('Version')))![1]!
        terminal.keys('Down', 'Enter')
        const done = await terminal.waitFor('EXIT=')
        expect(done).toContain('EXIT=0')
        expect(done).toContain(`Rolled ${service} back from`)
        expect(done).toContain(`to ${second}`)
      } finally {
        terminal.close()
      }
      const rollbacks = await rollbacksOf(service)
      expect(rollbacks).toHaveLength(before + 1)
      expect(rollbacks[0]!.version).toBe(second)
    },
    60_000,
  )
})
