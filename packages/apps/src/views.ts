/**
 * @module views
 * The views an application serves (MCP Apps): HTML documents a host renders in a sandboxed frame
 * beside a tool's result, each a `ui://` resource of type `text/html;profile=mcp-app` with what
 * its sandbox may reach (`csp`) and use (`permissions`). Checked when given: a view that would be
 * refused by a host, or could reach more than it says, is refused here.
 */

/** Origins a view may reach, by purpose; each an origin such as `https://api.example.com`. */
export interface ViewCsp {
  /** What `fetch`, XHR and WebSocket may reach. */
  connectDomains?: readonly string[]
  /** Where scripts, styles, images, fonts and media may load from. */
  resourceDomains?: readonly string[]
  /** What nested frames may load. */
  frameDomains?: readonly string[]
  /** What `<base href>` may name. */
  baseUriDomains?: readonly string[]
}

/** Browser features a view asks the host to allow its frame. */
export interface ViewPermissions {
  camera?: boolean
  microphone?: boolean
  geolocation?: boolean
  clipboardWrite?: boolean
}

/** A view as the application gives it. */
export interface ViewSource {
  /** A `ui://` URI, which tools name in their `ui.resourceUri`. */
  uri: string
  /** Its name in `resources/list`. */
  name: string
  /** What it shows, for people. */
  description?: string
  /** The whole document: one self-contained HTML file (scripts and styles inlined). */
  html: string
  /** What it may reach beyond itself (default: nothing). */
  csp?: ViewCsp
  /** Browser features it needs (default: none). */
  permissions?: ViewPermissions
  /** Draw the host's border around it (default: the host decides). */
  prefersBorder?: boolean
}
