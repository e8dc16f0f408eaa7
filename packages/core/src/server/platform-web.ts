/**
 * @module platform-web
 * The defaults where there is no Node (Workers, browsers): the console logger, a bus in memory
 * (a shared one is given through `stores.bus`), no development console and no OpenTelemetry.
 */
import { consoleLogger } from '../observation/console-logger.ts'
import { memoryNotificationBus } from './notification-bus.ts'
import type { Platform } from './platform.ts'

export const webPlatform: Platform = {
  defaultLogger: () => consoleLogger(),
  defaultBus: () => ({ bus: memoryNotificationBus(), shared: false }),
  subscribers: [],
  // `#otel-loader` loads no API on the web build, so a subscriber there would never record.
  telemetry: () => undefined,
}
