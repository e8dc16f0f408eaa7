/**
 * @module report-listening
 * Preloaded into the server process `tessera dev` runs: tells the CLI, over the IPC channel,
 * the URL of every server the process starts listening on.
 */
import { subscribe } from 'node:diagnostics_channel'
import { DEV_TAG, LISTENING_CHANNEL } from './dev-messages.ts'

subscribe(LISTENING_CHANNEL, (message) => {
  const url = (message as { url?: unknown }).url
  if (typeof url === 'string' && process.send) process.send({ [DEV_TAG]: { url } })
})
