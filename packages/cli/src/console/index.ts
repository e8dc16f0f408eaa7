/**
 * @module console
 * The development console: `tessera dev` serves it beside the server, and
 * `listen(app, { devConsole: true })` loads it from here.
 */
export { CONSOLE_PATH, createDevConsole, type DevConsole, type DevConsoleOptions } from './dev-console.ts'
