/**
 * @module method-table
 * Method name → implementation, with what gates it: the revisions it exists in, and whether what
 * it serves is offered now (a method behind a capability the server does not advertise is
 * -32601, exactly like one that does not exist); and the params field `Mcp-Name` mirrors. One
 * table per server: the core's methods and those of the extensions it was created with.
 */
import type { Catalogue } from '../catalogue.ts'
import type { Era } from '../context.ts'
import type { Extension } from '../extensions/extension.ts'
import { extensionMethodSpecs } from '../extensions/extension-methods.ts'
import { completeArgument } from '../methods/completion.ts'
import { discover } from '../methods/discover.ts'
import type { MethodImpl, MethodSpec, Methods } from '../methods/method-call.ts'
import { getPrompt, listPrompts } from '../methods/prompts.ts'
import { listResources, listResourceTemplates, readResource } from '../methods/resources.ts'
import { callTool, listTools } from '../methods/tools.ts'

const hasTools = (catalogue: Catalogue) => catalogue.tools.size > 0
const hasResources = (catalogue: Catalogue) => catalogue.resources.size > 0
const hasPrompts = (catalogue: Catalogue) => catalogue.prompts.size > 0
const modernOnly = (_: Catalogue, era: Era) => era === 'modern'
const unreachable: MethodImpl = () => {
  throw new Error('subscriptions/listen is served as a stream')
}

const CORE_METHODS: Readonly<Record<string, MethodSpec>> = {
  'server/discover': { run: discover, enabled: modernOnly },
  'tools/list': { run: listTools, enabled: hasTools },
  'tools/call': { run: callTool, enabled: hasTools, nameParam: 'name' },
  'resources/list': { run: listResources, enabled: hasResources },
  'resources/templates/list': { run: listResourceTemplates, enabled: hasResources },
  'resources/read': { run: readResource, enabled: hasResources, nameParam: 'uri' },
  'prompts/list': { run: listPrompts, enabled: hasPrompts },
  'prompts/get': { run: getPrompt, enabled: hasPrompts, nameParam: 'name' },
  'completion/complete': {
    run: completeArgument,
    enabled: (catalogue: Catalogue) => catalogue.hasCompletions(),
  },
  'subscriptions/listen': { run: unreachable, enabled: modernOnly },
}

/** The names of the core's own methods, which no extension may take. */
export const CORE_METHOD_NAMES: readonly string[] = Object.keys(CORE_METHODS)

export class MethodTable implements Methods {
  readonly #specs: Readonly<Record<string, MethodSpec>>

  constructor(extensions: readonly Extension[]) {
    this.#specs = Object.assign(Object.create(null), CORE_METHODS, extensionMethodSpecs(extensions))
  }

  find(method: string, era: Era, catalogue: Catalogue): MethodSpec | undefined {
    const spec = this.#specs[method]
    if (spec === undefined || (spec.enabled !== undefined && !spec.enabled(catalogue, era))) return undefined
    return spec
  }

  names(): string[] {
    return Object.keys(this.#specs)
  }
}
