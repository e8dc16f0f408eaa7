/**
 * @module serve-cluster.test
 * `serveCluster` as a real process tree (the fixture script, two workers): every worker serves
 * the one port, resource updates cross workers on the default bus, a killed worker is replaced,
 * SIGTERM lets a request in flight finish before everything exits 0, and a cluster whose workers
 * would keep keys in their own memory, or cannot build their server, stops with the reason; at
 * the default log level the primary's start is one line, with the number of workers and the URL.
 * Connections are pinned to a worker with one-socket agents, so each check names the worker it
 * reached.
 */
import { randomBytes } from 'node:crypto'
import { Agent, request } from 'node:http'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { freePort, LoggedProcess } from '../../../../../test/helpers/logged-process.ts'
import { type Json, mcpHeaders, withMeta } from '../../../../../test/helpers/mcp-http.ts'

const FIXTURE = fileURLToPath(new URL('./serve-cluster.fixture.ts', import.meta.url))

async function startCluster(
  mode: string,
  workers = 2,
  env: Record<string, string> = {},
): Promise<{ cluster: LoggedProcess; url: string }> {
  const port = await freePort()
  const cluster = new LoggedProcess(FIXTURE, [], {
    FIXTURE_MODE: mode,
    FIXTURE_WORKERS: String(workers),
    FIXTURE_SECRET: randomBytes(32).toString('base64'),
    PORT: String(port),
    ...env,
  })
  return { cluster, url: `http://127.0.0.1:${port}/mcp` }
}

/** A connection of its own: every request through it reaches the same worker. */
const pinned = () => new Agent({ keepAlive: true, maxSockets: 1 })

function post(agent: Agent, url: string, method: string, params: Json) {
  const full = withMeta(params)
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: full })
  return new Promise<import('node:http').IncomingMessage>((resolve, reject) => {
    const req = request(url, { method: 'POST', agent, headers: mcpHeaders(method, full) }, resolve)
    req.once('error', reject)
    req.end(body)
  })
}

async function callTool(agent: Agent, url: string, name: string): Promise<string> {
  const res = await post(agent, url, 'tools/call', { name, arguments: {} })
  let text = ''
  for await (const chunk of res) text += chunk
  const reply = JSON.parse(text) as { result?: { content: Array<{ text: string }> } }
  if (reply.result === undefined) throw new Error(`no result: ${text}`)
  return reply.result.content[0]!.text
}

/** Opens a listen stream for resource updates; `seen` collects what arrives. */
async function listenFor(agent: Agent, url: string, uri: string) {
  const res = await post(agent, url, 'subscriptions/listen', {
    notifications: { resourceSubscriptions: [uri] },
  })
  const stream = { seen: '', close: () => res.destroy() }
  res.setEncoding('utf8').on('data', (chunk: string) => {
    stream.seen += chunk
  })
  return stream
}

async function until(check: () => boolean, what: string, ms = 5_000): Promise<void> {
  const deadline = Date.now() + ms
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

describe('serveCluster with two workers', () => {
  let cluster: LoggedProcess
  let url: string
  const agents: Agent[] = []

  /** Four fresh connections, spread over the workers, and the worker pid each reached. */
  async function spread(): Promise<Array<{ agent: Agent; pid: string }>> {
    const fresh = Array.from({ length: 4 }, pinned)
    agents.push(...fresh)
    return Promise.all(fresh.map(async (agent) => ({ agent, pid: await callTool(agent, url, 'pid') })))
  }

  beforeAll(async () => {
    ;({ cluster, url } = await startCluster('shared'))
    const ready = await cluster.waitForEvent('cluster_listening')
    expect(ready).toMatchObject({ url, workers: 2 })
  }, 30_000)

  afterAll(async () => {
    for (const agent of agents) agent.destroy()
    expect(await cluster.stop()).toBe(0)
  })

  it('servesFromEveryWorkerOnOnePort', async () => {
    const reached = await spread()
    expect(new Set(reached.map((r) => r.pid)).size).toBe(2)
  })

  it('carriesResourceUpdatesToTheStreamsOfEveryWorker', async () => {
    const reached = await spread()
    const onEach = [...new Map(reached.map((r) => [r.pid, r.agent])).values()]
    expect(onEach).toHaveLength(2)
    const streams = await Promise.all(onEach.map((agent) => listenFor(agent, url, 'config://shared')))
    await until(
      () => streams.every((s) => s.seen.includes('"resourceSubscriptions"')),
      'both acknowledgements',
    )
    const [first] = await spread()
    expect(await callTool(first!.agent, url, 'touch')).toBe('touched')
    await until(
      () => streams.every((s) => s.seen.includes('notifications/resources/updated')),
      'the update on both streams',
    )
    for (const stream of streams) stream.close()
  })

  it('replacesAWorkerThatDies', async () => {
    const before = await spread()
    const victim = Number(before[0]!.pid)
    const listened = cluster.logs.filter((l) => l.event === 'worker_listening').length
    process.kill(victim, 'SIGKILL')
    await cluster.waitForEvent('worker_died')
    await until(
      () => cluster.logs.filter((l) => l.event === 'worker_listening').length > listened,
      'a replacement worker',
    )
    const after = await spread()
    const pids = new Set(after.map((r) => Number(r.pid)))
    expect(pids.size).toBe(2)
    expect(pids.has(victim)).toBe(false)
  })
})

describe('serveCluster stopping and refusing', () => {
  it('letsARequestInFlightFinishOnSigtermThenExitsZero', async () => {
    const { cluster, url } = await startCluster('shared')
    await cluster.waitForEvent('cluster_listening')
    const agent = pinned()
    const slow = callTool(agent, url, 'slow')
    await new Promise((resolve) => setTimeout(resolve, 150))
    cluster.child.kill('SIGTERM')
    expect(await slow).toMatch(/^slow done by \d+$/)
    expect(await cluster.exited).toBe(0)
    expect(cluster.logs.some((l) => l.event === 'cluster_stopped')).toBe(true)
    agent.destroy()
  }, 30_000)

  it('refusesWorkersThatWouldKeepTheKeysInTheirOwnMemory', async () => {
    const { cluster } = await startCluster('local')
    const failed = await cluster.waitForEvent('worker_failed_to_start')
    expect(failed.reason).toContain('2 workers must share requestState.keys')
    expect(await cluster.exited).not.toBe(0)
    expect(cluster.logs.some((l) => l.event === 'cluster_listening')).toBe(false)
  }, 30_000)

  it('servesOneWorkerWithoutSharedStateSinceNothingIsShared', async () => {
    const { cluster, url } = await startCluster('local', 1)
    await cluster.waitForEvent('cluster_listening')
    const agent = pinned()
    expect(await callTool(agent, url, 'pid')).toMatch(/^\d+$/)
    agent.destroy()
    expect(await cluster.stop()).toBe(0)
  }, 30_000)

  it('stopsWithTheReasonWhenAWorkerCannotBuildItsServer', async () => {
    const { cluster } = await startCluster('broken')
    const failed = await cluster.waitForEvent('worker_failed_to_start')
    expect(failed.reason).toBe('the database is unreachable')
    expect(await cluster.exited).not.toBe(0)
    expect(cluster.stderr).toContain('serveCluster: worker')
  }, 30_000)
})

describe('serveCluster at the default log level', () => {
  it('saysInOneLineHowManyWorkersListenOnWhichUrl', async () => {
    const { cluster, url } = await startCluster('shared', 2, {
      FIXTURE_LOGGER: 'default',
      TESSERA_LOG_LEVEL: '',
    })
    try {
      const ready = await cluster.waitForEvent('cluster_listening')
      expect(ready).toMatchObject({ url, workers: 2, msg: `MCP server listening on ${url} with 2 workers` })
      const agent = pinned()
      expect(await callTool(agent, url, 'pid')).toMatch(/^\d+$/)
      agent.destroy()
      expect(cluster.logs).toEqual([ready])
    } finally {
      expect(await cluster.stop()).toBe(0)
    }
  }, 30_000)
})
