/**
 * @module ops-view
 * The ops catalogue's view (MCP Apps): the page `view/` builds, shown by hosts beside
 * `service_status`. It reaches nothing beyond the host, so it asks for no CSP origin and no
 * permission. `npm run build` writes it (`src/runtime/built-view.ts` reads it on Node); a server
 * started without it serves no view.
 */
import type { ViewSource } from '@tessera/apps'

/** The view's URI, which `service_status` names. */
export const OPS_VIEW_URI = 'ui://ops-catalogue/service'

/** The view with `html` as its page. */
export function opsView(html: string): ViewSource {
  return {
    uri: OPS_VIEW_URI,
    name: 'Service',
    description: "A service's health and deployment history, with a rollback that asks which version first.",
    html,
  }
}
