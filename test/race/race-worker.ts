/**
 * @module race-worker
 * A worker process for the single-use race tests, spawned with `node --import tsx`.
 * It speaks JSON lines: commands on stdin, reports on stdout. Separate processes (not
 * promises in one process) are the point: a check-then-act race only shows between
 * workers that share nothing but the store.
 *
 * Modes: `race` runs one guarded action per `attempt` command, starting at the command's
 * wall-clock instant so all workers hit the store together; `hold` claims one key, starts
 * work that never ends, and probes the key from a second store connection from inside it.
 */
import { appendFileSync } from 'node:fs'
import { createInterface } from 'node:readline'
import { setTimeout as sleep } from 'node:timers/promises'
import type { SingleUseGuard } from '@tessera/core/ports'
import { createSingleUseGuard } from '@tessera/core/ports'
import type { AttemptCommand, WorkerConfig } from './race-stores.ts'
import { openStore } from './race-stores.ts'

const TTL_MS = 60_000

function report(message: Record<string, unknown>): void {
  process.stdout.write(`${JSON.stringify({ ...message, pid: process.pid })}\n`)
}

async function attempt(config: WorkerConfig, guard: SingleUseGuard, command: AttemptCommand): Promise<void> {
  await sleep(Math.max(0, command.at - Date.now()))
  try {
    const result = await guard.run(
      command.key,
      `rollback round ${command.round}`,
      TTL_MS,
      async () => {
        // The shared execution log: one line per time the destructive action really ran.
        appendFileSync(config.logPath, `${command.round} ${process.pid}\n`)
        await sleep(config.workMs)
        return `round ${command.round} rolled back by ${process.pid}`
      },
      (value) => value,
    )
    report({ type: 'result', round: command.round, ...result })
  } catch (error) {
    report({ type: 'error', round: command.round, message: String(error) })
  }
}

async function race(config: WorkerConfig): Promise<void> {
  const store = openStore(config)
  const guard = createSingleUseGuard({ store, leaseMs: config.leaseMs, renewEveryMs: config.renewEveryMs })
  const pending: Promise<void>[] = []
  report({ type: 'ready' })
  for await (const line of createInterface({ input: process.stdin })) {
    if (line.trim() === '') continue
    pending.push(attempt(config, guard, JSON.parse(line) as AttemptCommand))
  }
  await Promise.all(pending)
  await store.close()
}

async function hold(config: WorkerConfig): Promise<void> {
  const store = openStore(config)
  const probe = openStore(config)
  const guard = createSingleUseGuard({ store, leaseMs: config.leaseMs, renewEveryMs: config.renewEveryMs })
  report({ type: 'ready' })
  await guard.run(
    config.key!,
    'long rollback',
    TTL_MS,
    async () => {
      appendFileSync(config.logPath, `hold ${process.pid}\n`)
      report({ type: 'working' })
      // From inside the work: a second connection's non-blocking claim must be refused.
      const seen = await probe.claim(config.key!, 'probe', config.leaseMs, TTL_MS)
      report({ type: 'probe', kind: seen.kind })
      // A long operation; this timer is what keeps the process alive, the guard's own timers are unref'd.
      await new Promise((resolve) => setInterval(resolve, 60_000))
    },
    () => 'never',
  )
}

const config = JSON.parse(process.argv[2] ?? '{}') as WorkerConfig
const main = config.mode === 'hold' ? hold : race
main(config).catch((error: unknown) => {
  report({ type: 'fatal', message: String(error) })
  process.exitCode = 1
})
