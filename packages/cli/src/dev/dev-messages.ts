/**
 * @module dev-messages
 * What the server process `tessera dev` runs tells the CLI: the channel core announces listening
 * servers on (core's `LISTENING_CHANNEL`, written out so the preload loads nothing of core into
 * the user's process), and the tag of the IPC message that carries the URL.
 */
export const LISTENING_CHANNEL = 'tessera:listening'
export const DEV_TAG = 'tessera:dev'
/** Core's `DEV_CHANNEL`: what the server publishes for the development console. */
export const DEV_CONSOLE_CHANNEL = 'tessera:dev'
/** The process-wide symbol core reads the registered console from (`registerDevConsole`). */
export const DEV_CONSOLE_KEY = 'tessera.dev-console'
