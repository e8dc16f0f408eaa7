/**
 * @module extension-options
 * The options extensions add to definitions, as types: empty here, filled in by each extension's
 * module through declaration merging, so `server.tool(name, { cost: 3 }, ...)` type-checks in an
 * application that installed the extension and nowhere else.
 */

/**
 * The options extensions add to `ToolConfig`. An extension's module declares its own:
 *
 * @example
 * ```ts
 * declare module '@tessera/core/extension' {
 *   interface ExtensionToolOptions {
 *     cost?: number
 *   }
 * }
 * ```
 */
// biome-ignore lint/suspicious/noEmptyInterface: filled in by declaration merging.
export interface ExtensionToolOptions {}

/** The options extensions add to `ResourceConfig` and `TemplateConfig` (see `ExtensionToolOptions`). */
// biome-ignore lint/suspicious/noEmptyInterface: filled in by declaration merging.
export interface ExtensionResourceOptions {}

/** The options extensions add to `PromptConfig` (see `ExtensionToolOptions`). */
// biome-ignore lint/suspicious/noEmptyInterface: filled in by declaration merging.
export interface ExtensionPromptOptions {}
