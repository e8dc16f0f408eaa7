/**
 * @module @tessera/core/extension
 * What an extension of the protocol is written against: the `Extension` contract (its id and
 * settings, the methods it adds, the options it adds to tools, resources and prompts, what it
 * registers), what its methods receive, and the helpers they share with the core's own methods
 * (pagination by opaque cursor and the page's result, reading a client's declarations, demanding
 * scopes, cutting a name echoed in an error short). Tasks are built on it, and so are
 * `@tessera/skills` and `@tessera/apps`; the guide `docs/guides/extensions.md` writes one.
 */
export { declaresExtension } from './protocol/modern/capabilities.ts'
export { requireScopes } from './server/authorization.ts'
export type {
  DefinedByExtension,
  Definition,
  DefinitionOptions,
  Extension,
  ExtensionCall,
  ExtensionMethod,
  ExtensionUsage,
} from './server/extensions/extension.ts'
export type {
  ExtensionPromptOptions,
  ExtensionResourceOptions,
  ExtensionToolOptions,
} from './server/extensions/extension-options.ts'
export { missingExtension } from './server/extensions/missing-extension.ts'
export { clipped } from './server/methods/method-call.ts'
export { type Page, pageResult, paginate } from './server/pagination.ts'
