/**
 * @module view-policy
 * The host's side of a view's sandbox: the Content-Security-Policy a host puts on the frame it
 * renders a view in, from the view's `_meta.ui.csp`. Nothing is reachable but what the view
 * declared: scripts and styles inline in its page (and from its `resourceDomains`), connections
 * only to its `connectDomains`, frames only from its `frameDomains`, `<base>` only its
 * `baseUriDomains`. And the features its frame is allowed (`allow`), from its `_meta.ui.permissions`.
 * Both read metadata a server sent, so what is not of the expected shape counts as not given.
 */
import type { ViewCsp } from './views.ts'

/** A permission of a view by its name in `_meta.ui.permissions`, and by the browser's name for it. */
const FEATURES = {
  camera: 'camera',
  microphone: 'microphone',
  geolocation: 'geolocation',
  clipboardWrite: 'clipboard-write',
} as const

/** The policy of a view whose metadata is `ui` (its `_meta.ui`, as `resources/read` gave it). */
export function viewContentSecurityPolicy(ui: { csp?: ViewCsp } | undefined): string {
  const csp: ViewCsp = typeof ui?.csp === 'object' && ui.csp !== null ? ui.csp : {}
  const list = (origins: readonly string[] | undefined, fallback: string) =>
    Array.isArray(origins) ? origins.filter(isOrigin).join(' ') || fallback : fallback
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

/**
 * The `allow` attribute of the frame a view whose metadata is `ui` is rendered in: the features
 * its `permissions` asked for, such as `camera; clipboard-write` (empty when it asked for none).
 */
export function viewPermissionsPolicy(ui: { permissions?: unknown } | undefined): string {
  const asked = ui?.permissions
  if (typeof asked !== 'object' || asked === null) return ''
  return Object.entries(FEATURES)
    .filter(([name]) => Object.hasOwn(asked, name))
    .map(([, feature]) => feature)
    .join('; ')
}

/** Only an origin goes into the policy: a value that could add a directive is dropped. */
function isOrigin(value: unknown): value is string {
  return typeof value === 'string' && /^(?:https?|wss?):\/\/[A-Za-z0-9*.-]+(?::\d{1,5})?$/.test(value)
}
