/**
 * @module stores-in-workerd.fixture
 * Runs `stores-worker.fixture.ts` in workerd as several Workers (each its own isolate) sharing one
 * Durable Object namespace, and gives a test on Node each port of `durableObjectStores` as an
 * object whose calls run inside a Worker: the stores, their RPC and the object are all workerd's.
 */
import { randomBytes } from 'node:crypto'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import type {
  NotificationBus,
  RateLimitStore,
  ReplayStore,
  ServerEvent,
  TaskStore,
} from '@tessera/core/ports'
import { type StartedWorkers, startWorkers } from '../../../test/runtimes/workerd.ts'

const ROOT = join(import.meta.dirname, '../../..')

/** Why the workerd suites cannot run here, or undefined when they can. */
export function workerdMissing(): string | undefined {
  if (!existsSync(join(ROOT, 'node_modules/.bin/workerd'))) return 'workerd is not installed (npm install)'
  if (!existsSync(join(ROOT, 'packages/core/dist/web.js')))
    return 'the Worker imports the built packages: run npm run build first'
  return undefined
}

/**
 * Serves `entry` (from the repository's root; by default the stores Worker) as `count` Workers
 * binding one `TesseraDurableObject` namespace as `TESSERA`, its objects on disk in `storageDir`
 * (kept) or in a directory of workerd's run (removed on stop).
 */
export function startStoresWorkers(
  count: number,
  storageDir?: string,
  entry = 'packages/cloudflare/src/stores-worker.fixture.ts',
): Promise<StartedWorkers> {
  return startWorkers({
    entry,
    count,
    durableObjects: [{ className: 'TesseraDurableObject', binding: 'TESSERA' }],
    ...(storageDir === undefined ? {} : { storageDir }),
  })
}

/** A store error as the Worker reported it, rebuilt so a test sees its name, message and code. */
class WorkerError extends Error {
  readonly code: string | undefined
  readonly detail: string | undefined
  constructor(error: RemoteError) {
    super(error.message)
    this.name = error.name
    this.code = error.code
    this.detail = error.detail
  }
}

interface RemoteError {
  name: string
  message: string
  code?: string
  /** What a store error says for logs only: shown by a test that fails on it. */
  detail?: string
}

async function invoke(url: string, instance: string, store: string, method: string, args: unknown[]) {
  const response = await fetch(`${url}/call`, {
    method: 'POST',
    body: JSON.stringify({ instance, store, method, args }),
  })
  const body = (await response.json()) as { value?: unknown; error?: RemoteError }
  if (body.error !== undefined) throw new WorkerError(body.error)
  return body.value === null ? undefined : body.value
}

/** A new store instance in the Worker at `url`, its methods called there. */
function remote<T>(url: string, store: 'replay' | 'tasks' | 'rateLimits', methods: readonly string[]): T {
  const instance = randomBytes(9).toString('base64url')
  return Object.fromEntries(
    methods.map((method) => [method, (...args: unknown[]) => invoke(url, instance, store, method, args)]),
  ) as T
}

export function remoteReplayStore(url: string): ReplayStore {
  return remote(url, 'replay', ['claim', 'epoch', 'renew', 'complete', 'release', 'inspect', 'close'])
}

export function remoteTaskStore(url: string): TaskStore {
  return remote(url, 'tasks', ['create', 'get', 'replace', 'close'])
}

export function remoteRateLimitStore(url: string): RateLimitStore {
  return remote(url, 'rateLimits', ['take', 'close'])
}

/**
 * A new bus instance in the Worker at `url`. What one turn publishes goes in one request, after
 * the last one has been answered, so the Worker numbers the events in the order they were
 * published (requests sent at once may arrive in any order); there it publishes each in a turn of
 * its own. Each `subscribe` is a streaming request to the Worker, in which the Worker subscribes;
 * `listening` resolves once every subscription made so far has told that it listens.
 */
export function remoteBus(url: string): NotificationBus & { listening(): Promise<void> } {
  const instance = randomBytes(9).toString('base64url')
  const pending = new Set<Promise<void>>()
  const streams = new Set<AbortController>()
  let batch: ServerEvent[] = []
  let sending: Promise<unknown> = Promise.resolve()
  const flush = () => {
    const events = batch
    batch = []
    sending = sending
      .then(() => invoke(url, instance, 'bus', 'publishInTurns', [events]))
      .catch((error: Error) => process.stderr.write(`remote bus: publishing failed: ${error.message}\n`))
  }
  return {
    publish(event: ServerEvent) {
      if (batch.push(event) === 1) queueMicrotask(flush)
    },
    subscribe(listener) {
      const abort = new AbortController()
      streams.add(abort)
      let active = true
      let ready!: () => void
      const listens = new Promise<void>((resolve) => {
        ready = resolve
      })
      pending.add(listens)
      void (async () => {
        const response = await fetch(`${url}/subscribe?instance=${instance}`, { signal: abort.signal })
        const reader = response.body!.getReader()
        const decoder = new TextDecoder()
        let buffered = ''
        for (let read = await reader.read(); !read.done; read = await reader.read()) {
          buffered += decoder.decode(read.value, { stream: true })
          let newline = buffered.indexOf('\n')
          while (newline >= 0) {
            const line = JSON.parse(buffered.slice(0, newline)) as ServerEvent | 'ready'
            buffered = buffered.slice(newline + 1)
            if (line === 'ready') ready()
            else if (active) listener(line)
            newline = buffered.indexOf('\n')
          }
        }
      })().catch(() => ready())
      return () => {
        active = false
        abort.abort()
        streams.delete(abort)
      }
    },
    async listening() {
      await Promise.all([...pending])
    },
    async close() {
      for (const abort of streams) abort.abort()
      streams.clear()
      await sending
      await invoke(url, instance, 'bus', 'close', [])
    },
  }
}
