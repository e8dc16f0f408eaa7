/**
 * @module report-listening
 * Preloaded into the server process `tessera dev` runs: tells the CLI, over the IPC channel,
 * the URL of every server the process starts listening on, and registers the development
 * console every server of the process then serves at `/_tessera/` (unless `--no-console`).
 */
import { subscribe } from 'node:diagnostics_channel'
import { createDevConsole } from '../console/dev-console.ts'
import { DEV_CONSOLE_KEY, DEV_TAG, LISTENING_CHANNEL } from './dev-messages.ts'

subscribe(LISTENING_CHANNEL, (message) => {
  const url = (message as { url?: unknown }).url
  if (typeof url === 'string' && process.send) process.send({ [DEV_TAG]: { url } })
})

if (process.env.TESSERA_DEV_CONSOLE !== 'off')
  (globalThis as Record<symbol, unknown>)[Symbol.for(DEV_CONSOLE_KEY)] = createDevConsole()
