/**
 * @module own-redis
 * A `redis-server` of a test's own, on a free port of 127.0.0.1, without persistence: a test can
 * stop, freeze (SIGSTOP), thaw or restart it without disturbing any other test. `hasRedisServer`
 * says whether the binary exists, so a test can skip with a reason when it does not.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process'
import { createServer } from 'node:net'

export const hasRedisServer = spawnSync('redis-server', ['--version']).status === 0

export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number }
      probe.close(() => resolve(port))
    })
  })
}

export interface OwnRedis {
  readonly port: number
  readonly url: string
  /** SIGSTOP: the server keeps its sockets and answers nothing until `thaw`. */
  freeze(): void
  thaw(): void
  /** SIGKILL, then wait for the exit. */
  stop(): Promise<void>
  /** A new server on the same port: empty, as a restart without persistence leaves it. */
  restart(): Promise<void>
}

export async function startOwnRedis(port?: number): Promise<OwnRedis> {
  const at = port ?? (await freePort())
  let child = await spawnRedis(at)
  const own: OwnRedis = {
    port: at,
    url: `redis://127.0.0.1:${at}`,
    freeze: () => child.kill('SIGSTOP'),
    thaw: () => child.kill('SIGCONT'),
    stop: () => kill(child),
    async restart() {
      await kill(child)
      child = await spawnRedis(at)
    },
  }
  return own
}

async function spawnRedis(port: number): Promise<ChildProcess> {
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  )
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('Ready to accept connections')) resolve()
    })
    child.once('exit', (code) => reject(new Error(`redis-server exited with ${code}`)))
  })
  return child
}

async function kill(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return
  const exited = new Promise((resolve) => child.once('exit', resolve))
  child.kill('SIGCONT')
  child.kill('SIGKILL')
  await exited
}
