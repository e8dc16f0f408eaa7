/**
 * @module stdio.test
 * `npm start -- --stdio` as a host runs it: JSON-RPC lines in, JSON-RPC lines out (and nothing
 * else on stdout), logs on stderr, exit 0 once stdin closes.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { afterAll, describe, expect, it } from 'vitest'
import { PROTOCOL_VERSION } from './mcp-client.ts'
import { OpsProcess } from './spawn-ops.ts'

const dir = mkdtempSync(join(tmpdir(), 'ops-catalogue-stdio-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const meta = {
  'io.modelcontextprotocol/protocolVersion': PROTOCOL_VERSION,
  'io.modelcontextprotocol/clientCapabilities': { elicitation: {} },
}

describe('--stdio', () => {
  it('answersDiscoverAndAToolsCallOnStdoutThenExits0WhenStdinCloses', async () => {
    const ops = new OpsProcess(['--stdio', '--data', dir, '--rollback-seconds', '0'])
    const lines: string[] = []
    const arrived = new Promise<void>((resolve) => {
      createInterface({ input: ops.child.stdout }).on('line', (line) => {
        lines.push(line)
        if (lines.length === 2) resolve()
      })
    })
    const send = (message: object) => ops.child.stdin.write(`${JSON.stringify(message)}\n`)
    send({ jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta: meta } })
    send({
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: { name: 'service_status', arguments: { service: 'checkout' }, _meta: meta },
    })
    await arrived
    ops.child.stdin.end()
    expect(await ops.exited).toBe(0)

    const replies = lines.map((l) => JSON.parse(l) as { id: number; result: Record<string, unknown> })
    const byId = new Map(replies.map((r) => [r.id, r.result]))
    expect(byId.get(1)).toMatchObject({ resultType: 'complete', capabilities: { tools: {} } })
    expect(byId.get(2)).toMatchObject({
      resultType: 'complete',
      structuredContent: { service: 'checkout', currentVersion: '2026.10.2' },
    })
    expect(lines).toHaveLength(2)
    expect(ops.logs.some((l) => l.event === 'serving_stdio')).toBe(true)
  })
})
