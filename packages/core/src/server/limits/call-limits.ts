/**
 * @module call-limits
 * What a tool call may take and give: bounds on its arguments' shape (nesting, elements, string
 * length), checked before they are validated; the largest result it may return, encoded; and how
 * long its handler may run. Given on `createServer` for every tool and on a tool for its own calls
 * (a tool's limits override the server's one by one), checked when given.
 */
import { assertKnownOptions, type OptionNames, positiveInteger } from '../../option-checks.ts'

/** Bounds on the shape of a call's arguments, checked before the input schema runs. */
export interface ArgumentLimits {
  /** How deep objects and arrays may nest, the arguments object being the first level (default 32). */
  maxDepth?: number
  /** How many array items and object members there may be in all (default 100 000). */
  maxElements?: number
  /** The longest string, key or value, in UTF-16 code units (default 1 048 576). */
  maxStringLength?: number
}

/**
 * What one call of a tool may take and give (`ServerOptions.limits`, `ToolConfig.limits`). The
 * defaults are far above what an honest call needs; a deadline has none unless given.
 */
export interface CallLimits {
  /** The shape of the arguments (see `ArgumentLimits`); past one, the call is -32602 naming it. */
  arguments?: ArgumentLimits
  /**
   * The largest result, in bytes of JSON (default 16 MiB): a larger one is replaced by a tool
   * error saying so, and the log names the tool and the size.
   */
  resultBytes?: number
  /**
   * How long the handler may run, in ms (default: no deadline). Then its `ctx.signal` aborts and
   * the call is refused (-32603, `TESSERA_DEADLINE_EXCEEDED`). A tool running as a task is not
   * bound by it: its lease governs it.
   */
  timeoutMs?: number
}

/** Every limit of a call, resolved. */
export interface ResolvedLimits {
  readonly arguments: Readonly<Required<ArgumentLimits>>
  readonly resultBytes: number
  readonly timeoutMs: number | undefined
}

export const DEFAULT_LIMITS: ResolvedLimits = Object.freeze({
  arguments: Object.freeze({ maxDepth: 32, maxElements: 100_000, maxStringLength: 1_048_576 }),
  resultBytes: 16 * 1024 * 1024,
  timeoutMs: undefined,
})

const LIMIT_NAMES = {
  arguments: true,
  resultBytes: true,
  timeoutMs: true,
} as const satisfies OptionNames<CallLimits>
const ARGUMENT_LIMIT_NAMES = {
  maxDepth: true,
  maxElements: true,
  maxStringLength: true,
} as const satisfies OptionNames<ArgumentLimits>

/**
 * `given` over `base`, each limit checked (a positive integer); `what` names the owner in errors
 * (`createServer`, `Tool 'deploy'`).
 */
export function resolveLimits(
  given: CallLimits | undefined,
  base: ResolvedLimits,
  what: string,
): ResolvedLimits {
  if (given === undefined) return base
  assertKnownOptions(given, LIMIT_NAMES, what, { path: 'limits' })
  const args = given.arguments
  if (args !== undefined) assertKnownOptions(args, ARGUMENT_LIMIT_NAMES, what, { path: 'limits.arguments' })
  const limit = (value: number | undefined, name: string, fallback: number) =>
    value === undefined ? fallback : positiveInteger(value, `${what}: limits.${name}`)
  return Object.freeze({
    arguments: Object.freeze({
      maxDepth: limit(args?.maxDepth, 'arguments.maxDepth', base.arguments.maxDepth),
      maxElements: limit(args?.maxElements, 'arguments.maxElements', base.arguments.maxElements),
      maxStringLength: limit(
        args?.maxStringLength,
        'arguments.maxStringLength',
        base.arguments.maxStringLength,
      ),
    }),
    resultBytes: limit(given.resultBytes, 'resultBytes', base.resultBytes),
    timeoutMs:
      given.timeoutMs === undefined
        ? base.timeoutMs
        : positiveInteger(given.timeoutMs, `${what}: limits.timeoutMs`),
  })
}
