/**
 * @module stdio.test
 * The stdio transport in a real child process (`fixtures/stdio-server.ts`): one JSON-RPC message
 * per line, logs on stderr only, `notifications/cancelled` stopping work and ending a listen
 * subscription, a malformed line answered without killing the process, and a clean exit on EOF.
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { envelope, type Json, META, sleep, VERSION } from '../helpers/mcp-http.ts'

const FIXTURE = fileURLToPath(new URL('./fixtures/stdio-server.ts', import.meta.url))
const ROOT = fileURLToPath(new URL('../..', import.meta.url))

/** One spawned server and everything it wrote. */
class StdioChild {
  readonly child: ChildProcessWithoutNullStreams
  readonly messages: Json[] = []
  readonly badLines: string[] = []
  stderr = ''
  readonly exited: Promise<number | null>
  private waiters: Array<() => void> = []
  private nextId = 1

  constructor() {
    this.child = spawn(process.execPath, ['--import', 'tsx', FIXTURE], {
      cwd: ROOT,
      stdio: ['pipe', 'pipe', 'pipe'],
    })
    this.child.stderr.on('data', (chunk: Buffer) => {
      this.stderr += chunk.toString()
      this.wake()
    })
    createInterface({ input: this.child.stdout }).on('line', (line) => {
      try {
        this.messages.push(JSON.parse(line) as Json)
      } catch {
        this.badLines.push(line)
      }
      this.wake()
    })
    this.exited = new Promise((resolve) => this.child.on('exit', (code) => resolve(code)))
  }

  sendLine(line: string): void {
    this.child.stdin.write(`${line}\n`)
  }

  send(message: Json): void {
    this.sendLine(JSON.stringify(message))
  }

  /** Sends a modern request and waits for its response. */
  async request(method: string, params: Json = {}, id: string | number = this.nextId++): Promise<Json> {
    this.send({
      jsonrpc: '2.0',
      id,
      method,
      params: { ...params, _meta: { ...envelope(), ...(params._meta as Json) } },
    })
    return this.waitFor((m) => m.id === id && !('method' in m))
  }

  async waitFor(predicate: (message: Json) => boolean, timeoutMs = 5_000): Promise<Json> {
    const deadline = Date.now() + timeoutMs
    for (;;) {
      const found = this.messages.find(predicate)
      if (found) return found
      if (Date.now() > deadline)
        throw new Error(`timed out; stdout: ${JSON.stringify(this.messages)}; stderr: ${this.stderr}`)
      await Promise.race([new Promise<void>((resolve) => this.waiters.push(resolve)), sleep(50)])
    }
  }

  async waitForStderr(text: string, timeoutMs = 5_000): Promise<void> {
    const deadline = Date.now() + timeoutMs
    while (!this.stderr.includes(text)) {
      if (Date.now() > deadline) throw new Error(`no "${text}" on stderr: ${this.stderr}`)
      await Promise.race([new Promise<void>((resolve) => this.waiters.push(resolve)), sleep(50)])
    }
  }

  async stop(): Promise<number | null> {
    this.child.stdin.end()
    const code = await Promise.race([this.exited, sleep(5_000).then(() => 'timeout' as const)])
    if (code === 'timeout') {
      this.child.kill('SIGKILL')
      throw new Error('server did not exit on stdin EOF')
    }
    return code
  }

  private wake(): void {
    for (const wake of this.waiters.splice(0)) wake()
  }
}

let server: StdioChild
beforeAll(async () => {
  server = new StdioChild()
  // The first answer also proves the child started.
  await server.request('server/discover', {}, 'warm-up')
})
afterAll(async () => {
  if (server.child.exitCode === null) await server.stop()
})

describe('stdio', () => {
  it('answersDiscover', async () => {
    const response = await server.request('server/discover')
    const result = response.result as Json
    expect(result.resultType).toBe('complete')
    expect(result.supportedVersions).toEqual(expect.arrayContaining([VERSION]))
    expect(result.capabilities).toMatchObject({
      tools: { listChanged: true },
      prompts: { listChanged: true },
    })
    expect((result._meta as Json)[META.serverInfo]).toEqual({ name: 'it-stdio', version: '1.0.0' })
  })

  it('callsATool', async () => {
    const response = await server.request('tools/call', { name: 'echo', arguments: { text: 'over stdio' } })
    expect(response.result).toMatchObject({
      resultType: 'complete',
      content: [{ type: 'text', text: 'echo: over stdio' }],
    })
  })

  it('answersAMalformedLineWithoutAnIdAndStaysAlive', async () => {
    const before = server.messages.length
    server.sendLine('{"jsonrpc": "2.0", "id": 5, "method": oops}')
    const error = await server.waitFor(
      (m, i = server.messages.indexOf(m)) => i >= before && (m.error as Json)?.code === -32700,
    )
    expect(error).not.toHaveProperty('id')
    expect((error.error as Json).message).toMatch(/line 1, column \d+/)
    const alive = await server.request('tools/call', { name: 'echo', arguments: { text: 'still here' } })
    expect((alive.result as Json).resultType).toBe('complete')
  })

  it('refusesAModernRequestWithoutMeta', async () => {
    server.send({ jsonrpc: '2.0', id: 'no-meta', method: 'tools/list', params: {} })
    const response = await server.waitFor((m) => m.id === 'no-meta')
    expect((response.error as Json).code).toBe(-32602)
  })

  it('refusesAnUnsupportedVersion', async () => {
    server.send({
      jsonrpc: '2.0',
      id: 'old',
      method: 'server/discover',
      params: { _meta: { ...envelope(), [META.protocolVersion]: '1900-01-01' } },
    })
    const response = await server.waitFor((m) => m.id === 'old')
    expect(response.error).toMatchObject({ code: -32022, data: { requested: '1900-01-01' } })
  })

  it('stopsALongToolOnNotificationsCancelledAndNeverAnswersIt', async () => {
    server.send({
      jsonrpc: '2.0',
      id: 'slow-1',
      method: 'tools/call',
      params: { name: 'slow', arguments: {}, _meta: { ...envelope(), progressToken: 'slow-progress' } },
    })
    await server.waitForStderr('slow started slow-1')
    server.send({
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId: 'slow-1', reason: 'user' },
    })
    await server.waitForStderr('slow aborted slow-1', 1_000)
    // Another request round-trips after the cancelled one had every chance to answer.
    await server.request('tools/call', { name: 'echo', arguments: { text: 'after cancel' } })
    await sleep(100)
    expect(server.messages.some((m) => m.id === 'slow-1')).toBe(false)
  })

  it('ignoresACancelForAnUnknownOrMalformedId', async () => {
    server.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'never-sent' } })
    server.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: { bad: true } } })
    server.send({ jsonrpc: '2.0', method: 'notifications/cancelled' })
    const response = await server.request('tools/call', { name: 'echo', arguments: { text: 'fine' } })
    expect((response.result as Json).resultType).toBe('complete')
  })

  it('listensUntilCancelled', async () => {
    server.send({
      jsonrpc: '2.0',
      id: 'L1',
      method: 'subscriptions/listen',
      params: { notifications: { toolsListChanged: true }, _meta: envelope() },
    })
    const ack = await server.waitFor((m) => m.method === 'notifications/subscriptions/acknowledged')
    expect(((ack.params as Json)._meta as Json)[META.subscriptionId]).toBe('L1')
    const isChange = (m: Json) =>
      m.method === 'notifications/tools/list_changed' &&
      ((m.params as Json)._meta as Json)[META.subscriptionId] === 'L1'
    await server.request('tools/call', { name: 'add-tool', arguments: {} })
    await server.waitFor(isChange)
    server.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'L1' } })
    const countBefore = server.messages.filter(isChange).length
    await server.request('tools/call', { name: 'add-tool', arguments: {} })
    await sleep(150)
    expect(server.messages.filter(isChange).length).toBe(countBefore)
    // No response is ever sent for a listen the client cancelled.
    expect(server.messages.some((m) => m.id === 'L1')).toBe(false)
  })

  it('sendsLogMessagesOnlyToARequestThatOptedIn', async () => {
    const quiet = await server.request('tools/call', { name: 'chatty', arguments: {} }, 'quiet')
    expect((quiet.result as Json).resultType).toBe('complete')
    const loud = await server.request(
      'tools/call',
      { name: 'chatty', arguments: {}, _meta: { [META.logLevel]: 'info' } },
      'loud',
    )
    expect((loud.result as Json).resultType).toBe('complete')
    const logs = server.messages.filter((m) => m.method === 'notifications/message')
    expect(logs).toHaveLength(1)
    expect(logs[0]?.params).toEqual({ level: 'warning', data: 'a warning for the client' })
  })

  it('keepsLogsOnStderrAndOnlyJsonRpcOnStdout', async () => {
    await server.request('tools/call', { name: 'chatty', arguments: {} })
    expect(server.stderr).toContain('chatty ran')
    expect(server.stderr).toMatch(/"level":(30|40)/)
    expect(server.badLines).toEqual([])
    for (const message of server.messages) expect(message.jsonrpc).toBe('2.0')
  })

  it('sendsNothingForARequestAfterItsResponse', async () => {
    const response = await server.request(
      'tools/call',
      { name: 'late-progress', arguments: {}, _meta: { progressToken: 'late', [META.logLevel]: 'debug' } },
      'late-1',
    )
    expect((response.result as Json).resultType).toBe('complete')
    await sleep(200)
    const at = server.messages.indexOf(response)
    const after = server.messages.slice(at + 1)
    expect(after.filter((m) => (m.params as Json | undefined)?.progressToken === 'late')).toEqual([])
    expect(
      after.filter((m) => m.method === 'notifications/message' && (m.params as Json).data === 'too late'),
    ).toEqual([])
  })
})

describe('stdio lifecycle', () => {
  it('exitsWithCodeZeroOnStdinEof', async () => {
    const child = new StdioChild()
    await child.request('server/discover')
    // An open listen subscription must not keep the process alive.
    child.send({
      jsonrpc: '2.0',
      id: 'open-listen',
      method: 'subscriptions/listen',
      params: { notifications: { toolsListChanged: true }, _meta: envelope() },
    })
    await child.waitFor((m) => m.method === 'notifications/subscriptions/acknowledged')
    expect(await child.stop()).toBe(0)
    expect(child.stderr).toContain('stdin closed')
    expect(child.badLines).toEqual([])
  })

  it('answersAnInFlightRequestBeforeExitingOnEof', async () => {
    const child = new StdioChild()
    const request = {
      jsonrpc: '2.0',
      id: 'one-shot',
      method: 'tools/call',
      params: { name: 'sleepy', arguments: {}, _meta: envelope() },
    }
    child.child.stdin.end(`${JSON.stringify(request)}\n`)
    expect(await child.exited).toBe(0)
    expect(child.stderr).toContain('sleepy finished')
    expect(child.messages.find((m) => m.id === 'one-shot')?.result).toMatchObject({
      content: [{ type: 'text', text: 'slept' }],
    })
  })
})
