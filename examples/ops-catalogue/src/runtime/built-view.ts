/**
 * @module built-view
 * The page of the ops catalogue's view as `npm run build` wrote it (`view/dist/index.html`), read
 * once when the server starts on Node; undefined when the view was not built.
 */
import { existsSync, readFileSync } from 'node:fs'

/** Where the build writes the view, from this module in `src/runtime/` or `dist/runtime/`. */
const BUILT_VIEW = new URL('../../view/dist/index.html', import.meta.url)

/** The page `npm run build` wrote, or undefined when the view was not built. */
export function readBuiltView(): string | undefined {
  return existsSync(BUILT_VIEW) ? readFileSync(BUILT_VIEW, 'utf8') : undefined
}
