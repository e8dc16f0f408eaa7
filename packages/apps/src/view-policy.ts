/**
 * @module view-policy
 * The host's side of a view's sandbox: the Content-Security-Policy a host puts on the frame it
 * renders a view in, from the view's `_meta.ui.csp`. Nothing is reachable but what the view
 * declared: scripts and styles inline in its page (and from its `resourceDomains`), connections
 * only to its `connectDomains`, frames only from its `frameDomains`, `<base>` only its
 * `baseUriDomains`.
 */
import type { ViewCsp } from './views.ts'

/** The policy of a view whose metadata is `ui` (its `_meta.ui`, as `resources/read` gave it). */
export function viewContentSecurityPolicy(ui: { csp?: ViewCsp } | undefined): string {
  const csp = ui?.csp ?? {}
  const list = (origins: readonly string[] | undefined, fallback: string) =>
    origins !== undefined && origins.length > 0 ? origins.filter(isOrigin).join(' ') || fallback : fallback
  const resources = list(csp.resourceDomains, '')
  return [
    "default-src 'none'",
    `script-src 'unsafe-inline' ${resources}`.trimEnd(),
    `style-src 'unsafe-inline' ${resources}`.trimEnd(),
    `img-src data: ${resources}`.trimEnd(),
    `font-src data: ${resources}`.trimEnd(),
    `media-src data: ${resources}`.trimEnd(),
    `connect-src ${list(csp.connectDomains, "'none'")}`,
    `frame-src ${list(csp.frameDomains, "'none'")}`,
    `base-uri ${list(csp.baseUriDomains, "'none'")}`,
  ].join('; ')
}

/** Only an origin goes into the policy: a value that could add a directive is dropped. */
function isOrigin(value: unknown): value is string {
  return typeof value === 'string' && /^(?:https?|wss?):\/\/[A-Za-z0-9*.-]+(?::\d{1,5})?$/.test(value)
}
