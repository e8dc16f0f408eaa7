/**
 * @module durable-object-stores.test
 * The store contracts every store passes, run against `durableObjectStores` inside workerd: two
 * Workers (two isolates) share one SQLite-backed `TesseraDurableObject`, and each "connection" a
 * contract asks for is a store instance in one of them, in turn. Without workerd or the built
 * packages the suites are skipped and say why.
 */

import { afterAll, beforeAll } from 'vitest'
import { describeNotificationBus } from '../../../test/contracts/notification-bus-contract.ts'
import { describeRateLimitStore } from '../../../test/contracts/rate-limit-store-contract.ts'
import { describeReplayStore } from '../../../test/contracts/replay-store-contract.ts'
import { describeTaskStore } from '../../../test/contracts/task-store-contract.ts'
import type { StartedWorkers } from '../../../test/runtimes/workerd.ts'
import {
  remoteBus,
  remoteRateLimitStore,
  remoteReplayStore,
  remoteTaskStore,
  startStoresWorkers,
  workerdMissing,
} from './stores-in-workerd.fixture.ts'

const skip = workerdMissing()
if (skip) process.stderr.write(`durable-object-stores tests skipped: ${skip}\n`)

let workers: StartedWorkers | undefined
let turn = 0
/** The Worker of the next connection: the two isolates alternate. */
const nextUrl = () => {
  if (workers === undefined) throw new Error('workerd is not running')
  return workers.urls[turn++ % workers.urls.length]!
}

beforeAll(async () => {
  if (!skip) workers = await startStoresWorkers(2)
}, 60_000)
afterAll(async () => {
  await workers?.stop()
})

const options = skip ? { skip } : {}
describeReplayStore('Durable Object (workerd)', () => remoteReplayStore(nextUrl()), options)
describeTaskStore('Durable Object (workerd)', () => remoteTaskStore(nextUrl()), options)
describeRateLimitStore('Durable Object (workerd)', () => remoteRateLimitStore(nextUrl()), options)
describeNotificationBus(
  'Durable Object (workerd)',
  {
    single: () => remoteBus(nextUrl()),
    async pair() {
      const [a, b] = [remoteBus(workers!.urls[0]!), remoteBus(workers!.urls[1]!)]
      return [a, b]
    },
    delivery: 'echoed',
    listening: (bus) => (bus as ReturnType<typeof remoteBus>).listening(),
  },
  options,
)
