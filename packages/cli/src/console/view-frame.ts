/**
 * @module view-frame
 * The sandbox the console renders a tool's view in (MCP Apps): a page of its own at
 * `/_tessera/view-frame`, which the console frames with `sandbox="allow-scripts allow-forms"` and
 * which its own CSP sandboxes too, so it always runs in an opaque origin, never the console's.
 * It holds the view in a frame inside it and relays the messages between the console's host side
 * and the view, as the MCP Apps sandbox proxy does: `ui/notifications/sandbox-proxy-ready` up once
 * it listens, then `ui/notifications/sandbox-resource-ready` down with the view's HTML, then every
 * message both ways. The view's `_meta.ui` comes in the query (`?ui=`, JSON): its CSP is the
 * page's response header, which the view's frame inherits whatever the view's HTML says, and its
 * permissions are that frame's `allow`. Both come from `@tessera/apps`, loaded when a view is first
 * shown: a server with views has it installed, and the console of one without needs none.
 */

/** The host's side of a view's sandbox, as `@tessera/apps` makes it. */
export interface ViewPolicies {
  viewContentSecurityPolicy(ui: object): string
  viewPermissionsPolicy(ui: object): string
}

let loaded: Promise<ViewPolicies | undefined> | undefined

/** `@tessera/apps`, loaded once; undefined when it cannot be (it is not installed beside the CLI). */
export function loadViewPolicies(): Promise<ViewPolicies | undefined> {
  loaded ??= import('@tessera/apps').catch(() => undefined)
  return loaded
}

/** The longest `ui` the page is asked for: a view's CSP lists and permissions, with room to spare. */
const MAX_UI_LENGTH = 8192

/** The page for one view, with the policy it is served under; or why the query asks for none. */
export type ViewFramePage = { html: string; policy: string } | { problem: string }

/**
 * The sandbox page for the view whose `_meta.ui` is the `ui` parameter of `query` (a URL's search
 * part); a view without metadata when there is none.
 */
export function viewFramePage(query: string, policies: ViewPolicies): ViewFramePage {
  const raw = new URLSearchParams(query).get('ui')
  if (raw !== null && raw.length > MAX_UI_LENGTH)
    return { problem: `The view's metadata is longer than ${MAX_UI_LENGTH} characters.` }
  let ui: unknown = {}
  if (raw !== null) {
    try {
      ui = JSON.parse(raw)
    } catch {
      return { problem: "The view's metadata (ui) is not JSON." }
    }
  }
  if (typeof ui !== 'object' || ui === null || Array.isArray(ui))
    return { problem: "The view's metadata (ui) is not a JSON object." }
  const policy = `${policies.viewContentSecurityPolicy(ui)}; sandbox allow-scripts allow-forms; frame-ancestors 'self'`
  return { html: page(policies.viewPermissionsPolicy(ui)), policy }
}

/**
 * The relay. Messages are taken from the console (the parent, at the origin this page's URL
 * names) and from the view's frame only, and sent to the console at that origin only; the view's
 * frame has no origin of its own to address, hence `*` towards it. One view per page.
 */
function page(allow: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>View</title>
<style>html, body { margin: 0; height: 100%; } iframe { display: block; border: 0; width: 100%; height: 100%; }</style>
</head>
<body>
<script>
(() => {
  const consoleOrigin = new URL(location.href).origin
  let view
  addEventListener('message', (event) => {
    const message = event.data
    if (event.source === parent && event.origin === consoleOrigin) {
      if (message?.method === 'ui/notifications/sandbox-resource-ready') {
        if (view !== undefined || typeof message.params?.html !== 'string') return
        view = document.createElement('iframe')
        view.setAttribute('sandbox', 'allow-scripts allow-forms')
        view.setAttribute('allow', ${JSON.stringify(allow)})
        view.title = document.title
        view.srcdoc = message.params.html
        document.body.append(view)
      } else view?.contentWindow?.postMessage(message, '*')
    } else if (view !== undefined && event.source === view.contentWindow) parent.postMessage(message, consoleOrigin)
  })
  parent.postMessage({ jsonrpc: '2.0', method: 'ui/notifications/sandbox-proxy-ready', params: {} }, consoleOrigin)
})()
</script>
</body>
</html>
`
}
