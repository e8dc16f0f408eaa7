/**
 * @module tool-task
 * How a tool runs as a task: the `task` option of its configuration, checked when it is
 * registered, and read back from what the tasks extension kept for it.
 */
import { assertKnownOptions, type OptionNames, positiveInteger } from '../../option-checks.ts'
import { TASKS_EXTENSION } from '../../protocol/modern/vocabulary.ts'
import type { RegisteredTool } from '../registry/tools.ts'
import type { ToolConfig, ToolTaskOptions } from '../types.ts'

export interface ToolTask {
  readonly support: 'optional' | 'required'
  readonly when: ((args: Record<string, unknown>) => boolean) | undefined
  readonly start: 'call' | 'handler'
  readonly ttlMs: number | null | undefined
  readonly pollIntervalMs: number | undefined
}

/** How `tool` runs as a task; undefined: always synchronously. */
export function taskOf(tool: RegisteredTool): ToolTask | undefined {
  return tool.extended.data.get(TASKS_EXTENSION) as ToolTask | undefined
}

const TASK_OPTION_NAMES = {
  support: true,
  when: true,
  start: true,
  ttlMs: true,
  pollIntervalMs: true,
} as const satisfies OptionNames<ToolTaskOptions>

/** The `task` option of a tool's configuration, checked; undefined when it has none. */
export function toolTask(option: ToolConfig['task'], what: string): ToolTask | undefined {
  if (option === undefined) return undefined
  const options: ToolTaskOptions = typeof option === 'string' ? { support: option } : option
  if (typeof options !== 'object' || options === null) {
    throw new TypeError(`${what}: task must be 'optional', 'required' or an options object.`)
  }
  assertKnownOptions(options, TASK_OPTION_NAMES, what, { path: 'task' })
  if (options.support !== 'optional' && options.support !== 'required') {
    throw new TypeError(`${what}: task support must be 'optional' or 'required'.`)
  }
  if (options.when !== undefined && typeof options.when !== 'function') {
    throw new TypeError(`${what}: task.when must be a function.`)
  }
  if (options.when !== undefined && options.support === 'required') {
    throw new TypeError(
      `${what}: task.when needs support 'optional' (a required task runs as a task always).`,
    )
  }
  const start = options.start ?? 'call'
  if (start !== 'call' && start !== 'handler') {
    throw new TypeError(`${what}: task.start must be 'call' or 'handler'.`)
  }
  const ttlMs = options.ttlMs
  if (ttlMs !== undefined && ttlMs !== null) positiveInteger(ttlMs, `${what}: task.ttlMs`)
  const poll = options.pollIntervalMs
  if (poll !== undefined) positiveInteger(poll, `${what}: task.pollIntervalMs`)
  return {
    support: options.support,
    when: options.when as ToolTask['when'],
    start,
    ttlMs,
    pollIntervalMs: poll,
  }
}
