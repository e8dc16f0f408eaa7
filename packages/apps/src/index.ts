/**
 * @module @tessera/apps
 * The MCP Apps extension (`io.modelcontextprotocol/ui`) for Tessera servers: views, HTML a host
 * renders in a sandboxed frame beside a tool's result, and tools only a view may call.
 */
export { APPS_EXTENSION, VIEW_MIME_TYPE } from '@tessera/core/protocol'
export {
  type AppsOptions,
  appsExtension,
  type ToolUiOptions,
  type ToolVisibility,
} from './apps-extension.ts'
export { viewContentSecurityPolicy, viewPermissionsPolicy } from './view-policy.ts'
export type { ViewCsp, ViewPermissions, ViewSource } from './views.ts'
