/**
 * @module runtimes.test
 * The same server served by Node (`listen`), Bun (`Bun.serve`), Deno (`Deno.serve`) and workerd
 * (bundled as a Worker: with Node compatibility, without it, and without it with the server's
 * stores in a Durable Object), the last three through the web-standard face, each with the
 * runtime's own defaults, probed over real HTTP on 127.0.0.1: both revisions answer; the host a
 * trusted proxy forwards is checked where the runtime tells the peer's address; a tampered state and a state bound to another call are
 * refused with the one fixed error; the committed requestState test vectors open, or are refused
 * for their reason, alike; the shared JSON Schema suite gets every verdict; parallel copies of one accepted single-use answer act once
 * and a later copy replays; an idle listen stream outlives Bun's idle timeout; and the runtime
 * prints no warning. Bun, Deno and workerd are the binaries of devDependencies; Node and Bun read
 * the sources (tsconfig's paths), Deno and the Worker the built packages (`npm run build`).
 */
import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { freePort } from '../conformance/fixture-server.ts'
import { commandFor, isWorker, RUNTIMES, type Runtime, startOn } from '../conformance/runtimes.ts'
import { HandshakeClient } from '../helpers/handshake-client.ts'
import { errorOf, type Json, McpHttpClient, resultOf, SseReader, textOf } from '../helpers/mcp-http.ts'

const ROOT = join(import.meta.dirname, '../..')
const HERE = 'test/runtimes'
/** Past `Bun.serve`'s default idle timeout (10 s), which cuts a response that shows no life. */
const PAST_BUN_IDLE_TIMEOUT_MS = 12_000

interface Served {
  url: string
  stderr: () => string
  stop: () => void
}

/** The probe entry of each runtime: a Worker's is bundled, the others' run as they are. */
const PROBES: Readonly<Record<Runtime, string>> = {
  node: `${HERE}/probe-node.ts`,
  bun: `${HERE}/probe-bun.ts`,
  deno: `${HERE}/probe-deno.ts`,
  workerd: `${HERE}/probe-worker.ts`,
  'workerd-no-compat': `${HERE}/probe-worker.ts`,
  'workerd-durable': `${HERE}/probe-durable-worker.ts`,
}

async function serve(runtime: Runtime, entry = PROBES[runtime]): Promise<Served> {
  const port = await freePort()
  const started = await startOn(runtime, entry, port)
  const { child } = started
  let stderr = ''
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString()
  })
  // workerd writes a Worker's console to stdout; the other runtimes write theirs to stderr.
  child.stdout?.on('data', (chunk: Buffer) => {
    if (isWorker(runtime)) stderr += chunk.toString()
  })
  const url = `http://127.0.0.1:${port}/mcp`
  const deadline = Date.now() + 30_000
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${runtime} exited: ${stderr}`)
    try {
      await fetch(url, { method: 'GET' })
      break
    } catch {
      if (Date.now() > deadline) throw new Error(`${runtime} did not listen: ${stderr}`)
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
  }
  return { url, stderr: () => stderr, stop: () => started.stop() }
}

/** Node and Bun read the sources through tsconfig's paths; Deno and a Worker, the built packages. */
const BUILT = existsSync(join(ROOT, 'packages/core/dist/web.js'))

function missing(runtime: Runtime): string | undefined {
  const binary = isWorker(runtime) ? 'workerd' : runtime
  if (runtime !== 'node' && !existsSync(join(ROOT, 'node_modules/.bin', binary)))
    return `${binary} is not installed (npm install)`
  if ((runtime === 'deno' || isWorker(runtime)) && !BUILT)
    return `${runtime} imports the built packages: run npm run build first`
  return undefined
}

const installed = (runtime: Runtime) => missing(runtime) === undefined
for (const runtime of RUNTIMES) {
  const why = missing(runtime)
  if (why !== undefined) console.log(`runtimes.test: skipped on ${runtime}: ${why}`)
}

describe.each(RUNTIMES.filter(installed))('on %s', (runtime) => {
  let served: Served
  let client: McpHttpClient
  beforeAll(async () => {
    served = await serve(runtime)
    client = new McpHttpClient(served.url)
  }, 40_000)
  afterAll(() => served?.stop())

  /** The first round of a rollback: its question and sealed state. */
  async function askedRollback(): Promise<string> {
    const asked = resultOf(await client.callTool('rollback'))
    expect(asked.resultType).toBe('input_required')
    return asked.requestState as string
  }

  /** The accepted answer to a rollback's question, with the state it answers. */
  const answered = (requestState: string): Json => ({
    inputResponses: { confirm: { action: 'accept', content: { ok: true } } },
    requestState,
  })

  /** What a check script prints on this runtime (a Worker's answer to any request), as JSON. */
  async function checked(script: string): Promise<unknown> {
    if (isWorker(runtime)) {
      // The check scripts keep nothing: the durable runtime checks them as workerd without Node compatibility.
      const worker = await serve(
        runtime === 'workerd-durable' ? 'workerd-no-compat' : runtime,
        `${HERE}/${script}-worker.ts`,
      )
      try {
        return await (await fetch(worker.url)).json()
      } finally {
        worker.stop()
      }
    }
    const { program, args } = commandFor(runtime, `${HERE}/${script}.ts`)
    const run = spawnSync(program, args, { cwd: ROOT, encoding: 'utf8', timeout: 30_000 })
    expect(run.status, run.stderr).toBe(0)
    return JSON.parse(run.stdout)
  }

  it('checksTheHostATrustedProxyForwardsWhereTheRuntimeTellsThePeer', async () => {
    const discover = (host: string) =>
      client.request('server/discover', {}, { headers: { 'x-forwarded-host': host } })
    expect((await discover('mcp.example.com')).status).toBe(200)
    const foreign = await discover('evil.example')
    if (isWorker(runtime)) {
      // A Worker is told no peer: no forwarding header is read, and the Host it was sent passes.
      expect(foreign.status).toBe(200)
      return
    }
    expect(foreign.status).toBe(403)
    expect(errorOf(foreign).message).toBe(
      "Forbidden: the host the proxy forwarded 'evil.example' is not allowed: add it to allowedHosts.",
    )
  })

  it('opensTheStateVectorsAndRefusesTheRestForTheirReasons', async () => {
    expect(await checked('state-vectors')).toEqual([])
  })

  it('givesEveryVerdictOfTheSharedJsonSchemaSuite', async () => {
    expect(await checked('schema-verdicts')).toEqual([])
  })

  it('answersAToolCallOfTheStatelessRevisionAndOpensAHandshakeSession', async () => {
    expect(textOf(resultOf(await client.callTool('greet', { name: 'Ada' })))).toBe('Hello, Ada!')
    const session = await HandshakeClient.connect(served.url)
    expect(session.sessionId).toMatch(/^[\w-]{16,}$/)
  })

  it('refusesATamperedStateAndAStateBoundToAnotherCallWithOneError', async () => {
    const state = await askedRollback()
    const flipped = state.slice(0, 30) + (state[30] === 'A' ? 'B' : 'A') + state.slice(31)
    const tampered = await client.callTool('rollback', {}, { extra: answered(flipped) })
    const foreign = await client.callTool('greet', { name: 'Ada' }, { extra: answered(state) })
    for (const refused of [tampered, foreign]) {
      expect(refused.status).toBe(400)
      expect(errorOf(refused)).toEqual(errorOf(tampered))
    }
    expect(errorOf(tampered).code).toBe(-32602)
  })

  it('actsOnceForParallelCopiesOfOneAcceptedAnswerAndReplaysItAfter', async () => {
    const before = Number(textOf(resultOf(await client.callTool('rollbacks'))))
    const state = await askedRollback()
    const copies = await Promise.all(
      Array.from({ length: 6 }, () => client.callTool('rollback', {}, { extra: answered(state) })),
    )
    const texts = copies.map((copy) => textOf(resultOf(copy)))
    expect(texts).toContain('Rolled back.')
    // Every other copy is told the answer is being acted on, or was: none acts again.
    const later = await client.callTool('rollback', {}, { extra: answered(state) })
    expect(textOf(resultOf(later))).toMatch(/^Already accepted/)
    expect(Number(textOf(resultOf(await client.callTool('rollbacks'))))).toBe(before + 1)
  })

  it('printsNothingButItsOwnLogLinesForRequestsAnsweredAtOnce', () => {
    const foreign = served
      .stderr()
      .split('\n')
      // Our JSON log lines, and the line announcing where it listens (workerd writes its own).
      .filter(
        (line) =>
          line.trim() !== '' && !line.startsWith('{') && !/^(probe server on|Listening on) /.test(line),
      )
    expect(foreign).toEqual([])
  })

  it('keepsAnIdleListenStreamOpenPastBunsIdleTimeout', {
    timeout: PAST_BUN_IDLE_TIMEOUT_MS + 10_000,
  }, async () => {
    const response = await client.open('subscriptions/listen', { notifications: { toolsListChanged: true } })
    const stream = new SseReader(response)
    await stream.next()
    expect(await stream.quietFor(PAST_BUN_IDLE_TIMEOUT_MS)).toBe(true)
    expect(stream.ended).toBe(false)
    expect(stream.seen).toMatch(/^: keep-alive$/m)
    await stream.cancel()
  })
})
