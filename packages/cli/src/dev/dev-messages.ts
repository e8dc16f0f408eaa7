/**
 * @module dev-messages
 * What the server process `tessera dev` runs tells the CLI: the channel core announces listening
 * servers on (core's `LISTENING_CHANNEL`, written out so the preload loads nothing of core into
 * the user's process), and the tag of the IPC message that carries the URL.
 */
export const LISTENING_CHANNEL = 'tessera:listening'
export const DEV_TAG = 'tessera:dev'
