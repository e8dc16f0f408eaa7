#!/usr/bin/env node
/**
 * @module bin
 * The `tessera` executable. An error that nothing caught (one an event emitter threw, say) is
 * reported like every other failure, in one line, rather than as Node's stack.
 */
import { failure } from './commands/failure.ts'
import { run } from './program.ts'

const argv = process.argv.slice(2)
const uncaught = (error: unknown): never => process.exit(failure(error, argv.includes('--verbose')))
process.on('uncaughtException', uncaught).on('unhandledRejection', uncaught)
process.exitCode = await run(argv)
