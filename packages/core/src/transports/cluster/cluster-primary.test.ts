import { EventEmitter } from 'node:events'
import { describe, expect, it, vi } from 'vitest'
import { stopWorker } from './cluster-primary.ts'

/** A worker that is exiting: its channel still looks open, but a send fails with EPIPE. */
function exitingWorker() {
  const worker = Object.assign(new EventEmitter(), {
    isDead: () => false,
    isConnected: () => true,
    send: (_message: unknown, callback?: (error: Error | null) => void) => {
      const error = Object.assign(new Error('write EPIPE'), { code: 'EPIPE' })
      if (callback) process.nextTick(callback, error)
      else process.nextTick(() => worker.emit('error', error))
      return false
    },
    process: { kill: vi.fn(() => true) },
  })
  return worker
}

describe('stopWorker', () => {
  it('signalsAWorkerWhoseChannelClosedInsteadOfFailingOnTheSend', async () => {
    const worker = exitingWorker()
    const stopped = stopWorker(worker, 60_000)
    await new Promise((resolve) => setImmediate(resolve))
    expect(worker.process.kill).toHaveBeenCalledWith('SIGTERM')
    worker.emit('exit', null, 'SIGTERM')
    await expect(stopped).resolves.toBeUndefined()
  })
})
