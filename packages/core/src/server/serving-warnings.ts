/**
 * @module serving-warnings
 * The warnings about what a server keeps in this process's memory only (an ephemeral requestState
 * key, single-use records without `stores.replay`). They are said when a transport starts serving
 * (`door.opened()`), once per server, not when the server is created: an in-process test client
 * serves no other process, so a test that builds a server hears nothing about it.
 */
import type { Logger } from '../observation/logger.ts'

export function warnEphemeralKey(logger: Logger): void {
  logger.warn(
    { event: 'request_state_ephemeral_key' },
    'no requestState keys configured: using an ephemeral key (states die with this process; several workers must share keys)',
  )
}

export function warnSingleUseInMemory(logger: Logger, tool: string): void {
  logger.warn(
    { event: 'single_use_memory_store', tool },
    'single-use tool without stores.replay: records are kept in this process only',
  )
}
