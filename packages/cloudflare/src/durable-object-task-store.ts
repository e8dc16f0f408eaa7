/**
 * @module durable-object-task-store
 * Tasks in the Durable Object: each port call is one RPC, and the object counts and inserts, or
 * compares and replaces, in one step.
 */
import { assertReplacement, type TaskStore } from '@tessera/core/ports'
import type { StubOf } from './object-stub.ts'

export function durableObjectTaskStore(stub: StubOf): TaskStore {
  let closed = false
  const assertOpen = () => {
    if (closed) throw new Error('the Durable Object task store is closed')
  }
  return {
    async create(task, limits) {
      assertOpen()
      return stub().createTask(task, limits)
    },
    async get(id) {
      assertOpen()
      return stub().getTask(id)
    },
    async replace(id, version, next) {
      assertOpen()
      assertReplacement(id, version, next)
      return stub().replaceTask(id, version, next)
    },
    async close() {
      closed = true
    },
  }
}
