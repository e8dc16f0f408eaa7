/**
 * @module cluster-bus-worker.fixture
 * A node:cluster worker for `cluster-bus.test`: it holds one `clusterNotificationBus()` and lets
 * the primary (the test) drive it over the worker's IPC channel, with messages under a tag of
 * their own, so the bus (which reacts to `tessera:bus` only) never mistakes them for its own.
 * The primary asks it to publish, subscribe and unsubscribe; it reports every delivery to a
 * subscription, every error of the bus, and that it is ready or closed.
 */
import cluster from 'node:cluster'
import { clusterNotificationBus } from './cluster-bus.ts'
import type { ServerEvent } from './notification-bus.ts'

export const CONTROL_TAG = 'tessera:bus-test'

/** From the primary to the worker. */
export type Command =
  | { kind: 'publish'; event: ServerEvent }
  | { kind: 'subscribe'; id: number }
  | { kind: 'unsubscribe'; id: number }
  | { kind: 'close' }

/** From the worker to the primary. */
export type Report =
  | { kind: 'ready' }
  | { kind: 'event'; id: number; event: ServerEvent }
  | { kind: 'error'; message: string }
  | { kind: 'closed' }

export function controlOf<T>(message: unknown): T | undefined {
  if (typeof message !== 'object' || message === null) return undefined
  return (message as Record<string, T | undefined>)[CONTROL_TAG]
}

function report(value: Report): void {
  if (process.connected) process.send!({ [CONTROL_TAG]: value })
}

if (cluster.isWorker) {
  const bus = clusterNotificationBus({
    onError: (error) => report({ kind: 'error', message: error.message }),
  })
  const subscriptions = new Map<number, () => void>()
  process.on('message', (message: unknown) => {
    const command = controlOf<Command>(message)
    if (command === undefined) return
    switch (command.kind) {
      case 'publish':
        bus.publish(command.event)
        return
      case 'subscribe':
        subscriptions.set(
          command.id,
          bus.subscribe((event) => report({ kind: 'event', id: command.id, event })),
        )
        return
      case 'unsubscribe':
        subscriptions.get(command.id)?.()
        subscriptions.delete(command.id)
        return
      case 'close':
        bus.close().then(() => report({ kind: 'closed' }))
        return
    }
  })
  report({ kind: 'ready' })
}
