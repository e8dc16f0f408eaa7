/**
 * @module view-checks
 * The checks a view passes when it is given, and the `_meta.ui` it is then served with.
 */
import { clipped } from '@tessera/core/extension'
import type { JsonObject } from '@tessera/core/protocol'
import type { ViewCsp, ViewPermissions, ViewSource } from './views.ts'

const CSP_KEYS = ['connectDomains', 'resourceDomains', 'frameDomains', 'baseUriDomains'] as const
const PERMISSION_KEYS = ['camera', 'microphone', 'geolocation', 'clipboardWrite'] as const
const VIEW_KEYS = new Set(['uri', 'name', 'description', 'html', 'csp', 'permissions', 'prefersBorder'])
/** An origin: a scheme of http(s) or ws(s), a host (a leading `*.` wildcard allowed), an optional port. */
const ORIGIN = /^(?:https?|wss?):\/\/(?:\*\.)?[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*(?::\d{1,5})?$/

/** A view checked, and the `_meta.ui` its content and listing carry. */
export interface CheckedView {
  readonly source: ViewSource
  readonly ui: JsonObject
}

/** Checks `view`; a TypeError naming it and the rule otherwise. */
export function checkView(view: ViewSource): CheckedView {
  const label = typeof view?.uri === 'string' ? `View '${clipped(view.uri)}'` : 'A view'
  const fail = (rule: string): never => {
    throw new TypeError(`${label}: ${rule}.`)
  }
  if (typeof view !== 'object' || view === null) fail('must be an object')
  for (const key of Object.keys(view)) if (!VIEW_KEYS.has(key)) fail(`'${key}' is not an option of a view`)
  if (!/^ui:\/\/[^\s]+$/.test(view.uri)) fail('its uri must be a ui:// URI')
  if (typeof view.name !== 'string' || view.name === '') fail('needs a name')
  if (typeof view.html !== 'string' || view.html.trim() === '') fail('needs its html')
  const ui: JsonObject = {}
  if (view.csp !== undefined) ui.csp = checkCsp(view.csp, fail)
  if (view.permissions !== undefined) ui.permissions = checkPermissions(view.permissions, fail)
  if (view.prefersBorder !== undefined) {
    if (typeof view.prefersBorder !== 'boolean') fail('prefersBorder must be a boolean')
    ui.prefersBorder = view.prefersBorder
  }
  return { source: view, ui }
}

function checkCsp(csp: ViewCsp, fail: (rule: string) => never): JsonObject {
  if (typeof csp !== 'object' || csp === null) fail('csp must be an object')
  const out: JsonObject = {}
  for (const key of Object.keys(csp)) {
    if (!(CSP_KEYS as readonly string[]).includes(key))
      fail(`csp.${key} is not a CSP list of a view (${CSP_KEYS.join(', ')})`)
    const list = csp[key as (typeof CSP_KEYS)[number]]
    if (!Array.isArray(list)) fail(`csp.${key} must be an array of origins`)
    for (const origin of list as readonly unknown[])
      if (typeof origin !== 'string' || !ORIGIN.test(origin))
        fail(
          `csp.${key} holds '${String(origin).slice(0, 80)}', which is not an origin such as https://api.example.com`,
        )
    out[key] = [...(list as readonly string[])]
  }
  return out
}

function checkPermissions(permissions: ViewPermissions, fail: (rule: string) => never): JsonObject {
  if (typeof permissions !== 'object' || permissions === null) fail('permissions must be an object')
  const out: JsonObject = {}
  for (const [key, value] of Object.entries(permissions)) {
    if (!(PERMISSION_KEYS as readonly string[]).includes(key))
      fail(`permissions.${key} is not a permission of a view (${PERMISSION_KEYS.join(', ')})`)
    if (typeof value !== 'boolean') fail(`permissions.${key} must be a boolean`)
    // The wire shape: a permission asked for is an empty object; one not asked for is absent.
    if (value) out[key] = {}
  }
  return out
}
