/**
 * @module cost
 * An extension of the protocol, written against `@tessera/core/extension`: a tool may say what a
 * call of it costs (`cost`, in whole units of the server's currency); the extension checks that
 * when the tool is registered, lists it in the tool's `_meta`, advertises the currency while a
 * registered tool has a cost, and adds `cost/quote`, which tells a client what calling a tool
 * would cost before it calls it.
 */
import { TesseraError } from '@tessera/core'
import type { Extension } from '@tessera/core/extension'
import { assertKnownOptions } from '@tessera/core/ports'

/** The extension's identifier: its key in `capabilities.extensions` and in a tool's `_meta`. */
export const COST_EXTENSION = 'com.example/cost'

// The option is typed on every tool of an application that imports this module.
declare module '@tessera/core/extension' {
  interface ExtensionToolOptions {
    /** What one call costs, in whole units of the server's currency (the cost extension). */
    cost?: number
  }
}

/** What `costExtension` is given. */
export interface CostOptions {
  /** The unit costs are counted in, advertised to clients (`credits`, `EUR-cents`). */
  currency: string
}

/** The cost extension, counting in `options.currency`. */
export function costExtension(options: CostOptions): Extension {
  assertKnownOptions(options, { currency: true }, 'costExtension', { required: true })
  const { currency } = options
  if (typeof currency !== 'string' || currency === '') throw new TypeError('costExtension needs a currency.')
  return {
    id: COST_EXTENSION,
    // Offered while a registered tool has a cost: `cost/quote` is -32601 until then.
    settings: (usage) => (usage.tools > 0 ? { currency } : undefined),
    tools: {
      names: ['cost'],
      define: ({ config, label }) => {
        const cost = config.cost
        if (cost === undefined) return undefined
        if (typeof cost !== 'number' || !Number.isSafeInteger(cost) || cost < 0)
          throw new TypeError(`${label}: cost must be a whole number of ${currency}, 0 or more.`)
        return { data: cost, meta: { [COST_EXTENSION]: { cost, currency } } }
      },
    },
    methods: {
      'cost/quote': {
        // Over HTTP the tool's name travels in Mcp-Name too, as for tools/call.
        nameParam: 'name',
        run: ({ params, dataOf }) => {
          const name = params.name
          if (typeof name !== 'string')
            throw new TesseraError('TESSERA_INVALID_PARAMS', 'Invalid params: name must be a string.')
          const cost = dataOf('tool', name)
          if (typeof cost !== 'number')
            throw new TesseraError(
              'TESSERA_INVALID_PARAMS',
              `Invalid params: no tool '${name.slice(0, 64)}' has a cost.`,
            )
          return { name, cost, currency }
        },
      },
    },
  }
}
