/**
 * @module extension-methods
 * An extension's methods as entries of the server's method table: offered while the extension is
 * advertised in the request's revision, refused with -32021 when they need a declaration the
 * request lacks, and run with the `ExtensionCall` built from the request.
 */
import type { JsonObject } from '../../protocol/jsonrpc/message.ts'
import { declaresExtension } from '../../protocol/modern/capabilities.ts'
import type { Catalogue } from '../catalogue.ts'
import type { MethodCall, MethodSpec } from '../methods/method-call.ts'
import type { Definition, Extension, ExtensionCall, ExtensionMethod } from './extension.ts'
import { missingExtension } from './missing-extension.ts'

/** Every method of every extension, by name. */
export function extensionMethodSpecs(extensions: readonly Extension[]): Record<string, MethodSpec> {
  const specs: Record<string, MethodSpec> = {}
  for (const extension of extensions)
    for (const [name, method] of Object.entries(extension.methods ?? {}))
      specs[name] = methodSpec(extension, name, method)
  return specs
}

function methodSpec(extension: Extension, name: string, method: ExtensionMethod): MethodSpec {
  const { id } = extension
  return {
    nameParam: method.nameParam,
    enabled: (catalogue, era) => catalogue.extensions.settingsOf(extension, era) !== undefined,
    run: (call) => {
      const declared = declaresExtension(call.meta.clientCapabilities, id)
      if (method.needsDeclaration === true && !declared)
        throw missingExtension(id, `${name} needs the ${id} extension`)
      return method.run(extensionCall(call, id, declared))
    },
  }
}

function extensionCall(call: MethodCall, id: string, declared: boolean): ExtensionCall {
  const { catalogue, exchange, meta } = call
  const extensions = meta.clientCapabilities.extensions as JsonObject | undefined
  return {
    method: call.request.method,
    params: call.params,
    era: call.era,
    declared,
    clientSettings: declared ? (extensions?.[id] as JsonObject) : undefined,
    client: { capabilities: meta.clientCapabilities, info: meta.clientInfo },
    auth: exchange.auth,
    signal: exchange.signal,
    pageSize: catalogue.pageSize,
    logger: call.services.logger,
    dataOf: (kind, name) => definitionOf(catalogue, kind, name)?.data.get(id),
    waitUntil: exchange.waitUntil?.bind(exchange),
  }
}

function definitionOf(catalogue: Catalogue, kind: Definition['kind'], name: string) {
  switch (kind) {
    case 'tool':
      return catalogue.tools.get(name)?.extended
    case 'prompt':
      return catalogue.prompts.get(name)?.extended
    case 'resource':
      return catalogue.resources.getStatic(name)?.extended
    case 'template':
      return catalogue.resources.getTemplate(name)?.extended
  }
}
