/**
 * The environment every bench server runs in. The servers are TypeScript run by tsx, and tsx
 * follows the workspace's `paths`, which point `@tessera/*` at the sources; `bench/tsconfig.json`
 * has none, so the packages resolve through their `exports` to the compiled `dist/`, the code an
 * installed package runs. (Through tsx the sources cost a third of the throughput.)
 */
import { existsSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const BENCH = dirname(fileURLToPath(import.meta.url))

export function compiledEnv(): Record<string, string> {
  if (!existsSync(join(BENCH, '../packages/core/dist/index.js')))
    throw new Error('packages/core/dist is missing: run `npm run build` first')
  return { TSX_TSCONFIG_PATH: join(BENCH, 'tsconfig.json') }
}
