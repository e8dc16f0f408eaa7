/**
 * @module spawn-ops
 * Runs `src/main.ts` as a real process, the way `npm start` does, and watches its JSON log lines.
 */
import { fileURLToPath } from 'node:url'
import { LoggedProcess } from '../../../test/helpers/logged-process.ts'

export { freePort, type LogLine } from '../../../test/helpers/logged-process.ts'

export const MAIN = fileURLToPath(new URL('../src/main.ts', import.meta.url))

export class OpsProcess extends LoggedProcess {
  constructor(args: string[], env: Record<string, string> = {}) {
    super(MAIN, args, env)
  }
}
