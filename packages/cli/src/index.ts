/**
 * @module @tessera/cli
 * The `tessera` command line, callable from code: `run(['inspect', url])` resolves with the exit
 * code the command would exit with.
 */
export { run } from './program.ts'
