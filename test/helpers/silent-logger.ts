/**
 * @module silent-logger
 * A logger that drops everything, for tests whose servers are expected to log refusals.
 */
import type { Logger } from '@tessera/core'

export const silentLogger: Logger = { debug() {}, info() {}, warn() {}, error() {} }
