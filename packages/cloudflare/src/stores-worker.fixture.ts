/**
 * @module stores-worker.fixture
 * The Worker the store tests run in workerd: it exports the Durable Object and lets a test on Node
 * drive `durableObjectStores` inside the Worker over HTTP. Each store "connection" of a test is a
 * store instance of its own in the Worker, named by the test; a bus subscription is a streaming
 * request whose lines are the events its listener got, so the subscription lives in a request of
 * its own, as a listen stream's does.
 */
import type { NotificationBus, ServerEvent } from '@tessera/core/ports'
import { type DurableObjectStores, durableObjectStores } from './durable-object-stores.ts'
import type { DurableObjectNamespaceLike } from './object-stub.ts'

export { TesseraDurableObject } from './tessera-durable-object.ts'

interface Env {
  TESSERA: DurableObjectNamespaceLike
}

/** A store's method call, as the test sends it. */
interface Call {
  instance: string
  store: 'replay' | 'tasks' | 'rateLimits' | 'bus'
  method: string
  args: unknown[]
}

const instances = new Map<string, DurableObjectStores>()
const encoder = new TextEncoder()

function storesOf(env: Env, instance: string): DurableObjectStores {
  let stores = instances.get(instance)
  if (stores === undefined) {
    stores = durableObjectStores(env.TESSERA, {
      name: 'contract',
      // biome-ignore lint/suspicious/noConsole: workerd prints a Worker's console, so a failing test shows what the bus reported.
      onError: (error) => console.error(`bus: ${error.message}`),
    })
    instances.set(instance, stores)
  }
  return stores
}

/**
 * Publishes each event in a turn of its own, as an isolate's separate requests do: each goes to the
 * object in a call of its own and the calls overlap, so the order they arrive in is the object's to keep.
 */
async function publishInTurns(bus: NotificationBus, events: ServerEvent[]): Promise<void> {
  for (const event of events) {
    bus.publish(event)
    // After the microtask that sends this turn's call.
    await Promise.resolve()
  }
}

async function call(env: Env, body: Call): Promise<Response> {
  const stores = storesOf(env, body.instance)
  const store: object = stores[body.store]
  try {
    const method = Reflect.get(store, body.method) as (...args: unknown[]) => unknown
    const value =
      body.store === 'bus' && body.method === 'publishInTurns'
        ? await publishInTurns(stores.bus, body.args[0] as ServerEvent[])
        : await method.apply(store, body.args)
    // As the fetch face does on a Worker: the request lives until what it published has left.
    if (body.store === 'bus') await stores.bus.settled()
    return Response.json({ value: value ?? null })
  } catch (error) {
    const { name, message, code, detail } = error as {
      name: string
      message: string
      code?: string
      detail?: string
    }
    return Response.json({ error: { name, message, code, detail } })
  }
}

/** The events a new subscription's listener gets, one JSON line each, after a first `ready` line. */
function subscription(env: Env, instance: string): Response {
  const bus = storesOf(env, instance).bus
  let unsubscribe = () => {}
  const stream = new ReadableStream<Uint8Array>({
    async start(controller) {
      unsubscribe = bus.subscribe((event: ServerEvent) => {
        controller.enqueue(encoder.encode(`${JSON.stringify(event)}\n`))
      })
      await bus.ready()
      controller.enqueue(encoder.encode('"ready"\n'))
    },
    cancel() {
      unsubscribe()
    },
  })
  return new Response(stream, { headers: { 'content-type': 'application/x-ndjson' } })
}

export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    const url = new URL(request.url)
    if (url.pathname === '/call' && request.method === 'POST')
      return call(env, (await request.json()) as Call)
    if (url.pathname === '/subscribe') return subscription(env, url.searchParams.get('instance') ?? '')
    return new Response('not found', { status: 404 })
  },
}
