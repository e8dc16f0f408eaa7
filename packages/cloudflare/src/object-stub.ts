/**
 * @module object-stub
 * How the stores reach the one Durable Object they share: the namespace the Worker binds, the
 * object's name in it, and a fresh stub for each call. A stub is cheap to make and belongs to the
 * request that made it (a Worker may not carry I/O from one request into another), so none is
 * kept between calls.
 */
import type { TesseraDurableObject } from './tessera-durable-object.ts'

/**
 * A Durable Object namespace binding (`env.TESSERA`), as far as the stores use it; a
 * `DurableObjectNamespace<TesseraDurableObject>` from the Workers types is one.
 */
export interface DurableObjectNamespaceLike {
  /** The id of the object of that name (the same name, the same object, from every isolate). */
  idFromName(name: string): unknown
  /** A stub of the object with that id. */
  get(id: never): unknown
}

/** The object's methods as its stub offers them: every call is a promise. */
export type TesseraObjectStub = {
  [K in RpcMethod]: (
    ...args: Parameters<TesseraDurableObject[K]>
  ) => Promise<ReturnType<TesseraDurableObject[K]>>
} & {
  fetch(input: string, init?: RequestInit): Promise<Response>
}

type RpcMethod = Exclude<keyof TesseraDurableObject, 'fetch' | 'webSocketMessage' | 'webSocketClose'>

export type StubOf = () => TesseraObjectStub

/** Checks the binding once, when the stores are built, and returns how to reach the object. */
export function objectStubs(namespace: DurableObjectNamespaceLike, name: string, caller: string): StubOf {
  if (
    typeof namespace !== 'object' ||
    namespace === null ||
    typeof namespace.idFromName !== 'function' ||
    typeof namespace.get !== 'function'
  ) {
    throw new TypeError(
      `${caller}: the first argument must be a Durable Object namespace binding (env.TESSERA), bound to TesseraDurableObject.`,
    )
  }
  if (typeof name !== 'string' || name.length === 0 || name.length > 256) {
    throw new TypeError(`${caller}: name must be a string of 1 to 256 characters.`)
  }
  return () => namespace.get(namespace.idFromName(name) as never) as TesseraObjectStub
}
