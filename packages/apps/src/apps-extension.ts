/**
 * @module apps-extension
 * The MCP Apps extension (`io.modelcontextprotocol/ui`): views a host renders beside a tool's
 * result. Each view is a `ui://` resource of type `text/html;profile=mcp-app` with its sandbox's
 * `csp` and `permissions` in `_meta.ui`; a tool names its view with the `ui` option, checked when
 * the tool is registered (a view that was not given is refused then, not when a host asks).
 * A tool only the view may call (`visibility: ['app']`) is listed and callable only for a client
 * that declared the extension: a model's client never sees it. Every other tool answers every
 * client alike, with its ordinary result.
 */

import { clipped, type Extension } from '@tessera/core/extension'
import { assertKnownOptions, type OptionNames } from '@tessera/core/ports'
import { APPS_EXTENSION, type JsonObject, VIEW_MIME_TYPE } from '@tessera/core/protocol'
import { type CheckedView, checkView } from './view-checks.ts'
import type { ViewSource } from './views.ts'

/** Who may call a tool that has a view: the model (through the host), the view, or both. */
export type ToolVisibility = 'model' | 'app'

/** The `ui` option of a tool: the view shown with its result, and who may call it. */
export interface ToolUiOptions {
  /** The `ui://` URI of a view given to `appsExtension`. */
  resourceUri: string
  /** Who may call it (default both): `['app']` hides it from the model. */
  visibility?: readonly ToolVisibility[]
}

declare module '@tessera/core/extension' {
  interface ExtensionToolOptions {
    /** The view shown with the tool's result (the MCP Apps extension, `@tessera/apps`). */
    ui?: ToolUiOptions
  }
}

/** What `appsExtension` serves. */
export interface AppsOptions {
  /** The views, each checked now (see `ViewSource`). */
  views: readonly ViewSource[]
}

const OPTION_NAMES = { views: true } as const satisfies OptionNames<AppsOptions>
const UI_OPTION_NAMES = { resourceUri: true, visibility: true } as const satisfies OptionNames<ToolUiOptions>

/** What the extension keeps of a tool's `ui` option. */
interface ToolView {
  readonly resourceUri: string
  readonly appOnly: boolean
}

/**
 * The MCP Apps extension serving `options.views`.
 *
 * @example
 * ```ts
 * import { appsExtension } from '@tessera/apps'
 * import { createServer } from '@tessera/core'
 *
 * const server = createServer({
 *   name: 'ops',
 *   version: '1.0.0',
 *   extensions: [
 *     appsExtension({ views: [{ uri: 'ui://ops/status', name: 'Status', html: '<!doctype html><p>Status</p>' }] }),
 *   ],
 * })
 * server.tool('status', { description: 'Service status', ui: { resourceUri: 'ui://ops/status' } }, () => 'all green')
 * ```
 */
export function appsExtension(options: AppsOptions): Extension {
  assertKnownOptions(options, OPTION_NAMES, 'appsExtension', { required: true })
  if (!Array.isArray(options.views)) throw new TypeError('appsExtension needs views (an array).')
  const views = new Map<string, CheckedView>()
  for (const view of options.views.map(checkView)) {
    if (views.has(view.source.uri)) throw new TypeError(`View '${view.source.uri}' is given twice.`)
    views.set(view.source.uri, view)
  }
  return {
    id: APPS_EXTENSION,
    settings: () => (views.size > 0 ? {} : undefined),
    tools: {
      names: ['ui'],
      define: ({ config, label }) => {
        if (config.ui === undefined) return undefined
        const option = config.ui as ToolUiOptions
        const ui = toolUi(option, label, views)
        const meta: JsonObject = { resourceUri: ui.resourceUri }
        if (option.visibility !== undefined) meta.visibility = [...option.visibility]
        // The flat key is what hosts written before `_meta.ui` read.
        return { data: ui, meta: { ui: meta, 'ui/resourceUri': ui.resourceUri } }
      },
      visible: (data, client) => !(data as ToolView).appOnly || client.declared,
    },
    setup: (server) => {
      for (const { source, ui } of views.values()) {
        server.resource(
          source.uri,
          {
            name: source.name,
            ...(source.description === undefined ? {} : { description: source.description }),
            mimeType: VIEW_MIME_TYPE,
            _meta: { ui },
          },
          (uri) => ({ contents: [{ uri, mimeType: VIEW_MIME_TYPE, text: source.html, _meta: { ui } }] }),
        )
      }
    },
  }
}

function toolUi(option: ToolUiOptions, label: string, views: ReadonlyMap<string, CheckedView>): ToolView {
  if (typeof option !== 'object' || option === null) throw new TypeError(`${label}: ui must be an object.`)
  assertKnownOptions(option, UI_OPTION_NAMES, label, { path: 'ui' })
  if (!views.has(option.resourceUri))
    throw new TypeError(
      `${label}: ui.resourceUri '${clipped(String(option.resourceUri))}' names no view given to appsExtension.`,
    )
  const visibility = option.visibility ?? ['model', 'app']
  if (
    !Array.isArray(visibility) ||
    visibility.length === 0 ||
    visibility.some((who) => who !== 'model' && who !== 'app')
  )
    throw new TypeError(`${label}: ui.visibility must list 'model', 'app' or both.`)
  return { resourceUri: option.resourceUri, appOnly: !visibility.includes('model') }
}
