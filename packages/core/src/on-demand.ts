/**
 * @module on-demand
 * `#on-demand` on Node, Bun and Deno: the packages core loads the first time it needs them, which
 * for most servers is never (pino until a line at the logger's level is written, ipaddr.js
 * without `trustProxy`, ajv without a raw JSON Schema, `@opentelemetry/api` until an SDK
 * registered). An ES module cannot import synchronously, so each is required.
 *
 * Each is named in a `require('…')` call, so that a bundler sees it: esbuild and Bun's bundler
 * put the package in an application's bundle (evaluated on first use, as here), and the bundle
 * runs without `node_modules`. Node gives an ES module no `require`, so unbundled this module makes
 * one; Bun gives it one, which resolves from this file alike.
 *
 * `npm run build` leaves this module out of core's Node bundles (it is imported by this name from
 * each), so what it holds reaches an application's bundler as written here.
 */
import { createRequire } from 'node:module'
import type ipaddr from 'ipaddr.js'
import type { pino } from 'pino'

/** The module `require` of this file; made on first use (a CommonJS bundle has no `import.meta.url`). */
let nodeRequire: NodeJS.Require | undefined

/**
 * `id` required from this file's place. After `bundled` failed (an ES module bundle made without
 * a `require` for its CommonJS packages cannot load pino, which requires Node's built-ins), the
 * installed package is used if there is one, and `bundled` is the error if there is none.
 */
function fromHere(id: string, bundled?: unknown): unknown {
  try {
    nodeRequire ??= createRequire(import.meta.url)
    return nodeRequire(id)
  } catch (error) {
    throw bundled ?? error
  }
}

/**
 * The package `id`: by `required` (which names it in a `require` call a bundler can see) where
 * there is a `require`, else from this file's place.
 */
function load<T>(id: string, required: () => unknown): T {
  if (typeof require !== 'function') return fromHere(id) as T
  try {
    return required() as T
  } catch (error) {
    return fromHere(id, error) as T
  }
}

/** pino's module. */
export function pinoPackage(): { pino: typeof pino } {
  return load('pino', () => require('pino'))
}

/** ipaddr.js. */
export function ipaddrPackage(): typeof ipaddr {
  return load('ipaddr.js', () => require('ipaddr.js'))
}

/** ajv's module for JSON Schema draft-07 (`draft07`) or 2020-12. */
export function ajvPackage(draft07: boolean): unknown {
  return draft07 ? load('ajv', () => require('ajv')) : load('ajv/dist/2020', () => require('ajv/dist/2020'))
}

/**
 * `@opentelemetry/api`, an optional peer, or undefined when it is not installed. Its `require` is
 * written inside `try`, where a bundler that cannot resolve it (an application without the API)
 * leaves it to run time instead of failing the build.
 */
export function otelApiPackage(): unknown {
  try {
    if (typeof require === 'function') {
      try {
        return require('@opentelemetry/api')
      } catch (error) {
        return fromHere('@opentelemetry/api', error)
      }
    }
    return fromHere('@opentelemetry/api')
  } catch {
    return undefined
  }
}
