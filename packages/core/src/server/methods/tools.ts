/**
 * @module tools
 * `tools/list` and `tools/call`. A call resolves the tool, checks `Mcp-Param-*` mirrors, validates
 * the arguments before the handler runs (-32602 naming the path), and checks what the handler
 * returned: its shape, and its structured output against `output`. A handler that throws becomes
 * `isError: true` with a safe message; its stack stays in the logs.
 */
import { TesseraError } from '../../errors.ts'
import type { Logger } from '../../observation/logger.ts'
import type { JsonObject, ResultObject } from '../../protocol/jsonrpc/message.ts'
import { capabilityDeclarations, declaresExtension } from '../../protocol/modern/capabilities.ts'
import { checkParamHeaders } from '../../protocol/modern/param-headers/index.ts'
import type { CallToolResult } from '../../protocol/modern/results.ts'
import { TASKS_EXTENSION } from '../../protocol/modern/vocabulary.ts'
import { withFields } from '../../with-fields.ts'
import { listed, requireScopes } from '../authorization.ts'
import type { RequestContext } from '../context.ts'
import { keyedResult } from '../encoding-key.ts'
import { missingExtension } from '../extensions/missing-extension.ts'
import { argumentShapeFault } from '../limits/argument-shape.ts'
import { withDeadline } from '../limits/deadline.ts'
import { encodingOf, oversize } from '../limits/result-size.ts'
import { type InputRequiredWire, runInteractive } from '../mrtr/interactive.ts'
import { pageResult, paginate } from '../pagination.ts'
import type { RegisteredTool } from '../registry/tools.ts'
import type { TaskLaunch } from '../tasks/task-call.ts'
import type { TaskBody } from '../tasks/task-run.ts'
import { taskOf } from '../tasks/tool-task.ts'
import { ToolError } from '../tool-error.ts'
import { clipped, contextInit, invalidParams, type MethodCall } from './method-call.ts'
import { toolResultFault } from './result-shape.ts'

export function listTools({ catalogue, params, exchange, meta }: MethodCall): JsonObject {
  // What an extension hides from this request is not in the list, nor in what it may call.
  const shown = catalogue.tools.shownTo(meta.clientCapabilities)
  const [items, hint] = listed(
    catalogue.listOnlyPermitted,
    shown,
    () => catalogue.tools.listFor(exchange.auth, meta.clientCapabilities),
    catalogue.cache.toolsList,
  )
  const page = paginate('tools', items, params.cursor, catalogue.pageSize)
  const result = pageResult('tools', page, hint)
  // The first page of the whole list is every caller's (of one audience) until a tool changes,
  // which replaces the list: encoded once per list.
  return items === shown && page.start === 0 ? keyedResult(result, shown) : result
}

/**
 * `tools/call`. Not an async function: what it refuses before the handler runs is thrown from
 * here (its callers await it, so a throw reaches them as a rejection would), and the call's
 * promise is the run's own rather than one more around it.
 */
export function callTool(call: MethodCall): Promise<ResultObject> {
  const { catalogue, services, params, exchange } = call
  const name = params.name
  if (typeof name !== 'string') invalidParams('name must be a string.')
  const tool = catalogue.tools.get(name)
  if (tool === undefined || !catalogue.tools.offers(tool, call.meta.clientCapabilities))
    invalidParams(`unknown tool '${clipped(name)}'.`, { name: clipped(name) })
  requireScopes(tool.scopes, exchange.auth, tool.label)
  if (tool.rateLimit === undefined) return callAdmitted(call, tool)
  return services.limiter.admitTool(tool.name, tool.rateLimit, exchange).then(() => callAdmitted(call, tool))
}

/** A call its rate limit admitted: its mirrored headers and its arguments checked, then run. */
function callAdmitted(call: MethodCall, tool: RegisteredTool): Promise<ResultObject> {
  const { services, params, exchange } = call
  if (exchange.headers !== undefined && call.era === 'modern' && tool.mirror.length > 0) {
    const fault = checkParamHeaders(tool.mirror, params.arguments, exchange.headers)
    if (fault) throw new TesseraError('TESSERA_HEADER_MISMATCH', fault.message)
  }
  const { observer } = services
  const args = observer.phase('validate arguments', () => {
    const fault = argumentShapeFault(params.arguments, tool.limits.arguments)
    if (fault !== undefined) invalidParams(`arguments refused: ${fault}.`)
    return validateArguments(tool, params.arguments)
  })
  if (tool.trace.arguments && observer.wants('traced-value'))
    observer.announce({ step: 'traced-value', key: 'arguments', value: args })
  const { timeoutMs } = tool.limits
  const running = withDeadline(
    timeoutMs,
    tool.label,
    (deadline) => runTool(call, tool, args, deadline),
    () =>
      services.logger.warn(
        { event: 'tool_deadline', tool: tool.name, timeoutMs },
        `${tool.label} did not finish within ${timeoutMs} ms: its signal is aborted`,
      ),
  )
  if (!tool.trace.result) return running
  return running.then((result) => {
    // Only a result answered here: a question carries its requestState, a task its result later.
    if ((result as InputRequiredWire).resultType === undefined && observer.wants('traced-value'))
      observer.announce({ step: 'traced-value', key: 'result', value: result })
    return result
  })
}

/** The call run (under the guard for a single-use tool); a failure of the handler is a tool error. */
async function runTool(
  call: MethodCall,
  tool: RegisteredTool,
  args: Record<string, unknown>,
  deadline: AbortSignal | undefined,
): Promise<CallToolResult | InputRequiredWire> {
  const { services, params, exchange } = call
  const init = contextInit(call)
  if (deadline !== undefined) init.deadline = deadline
  try {
    return await runInteractive<CallToolResult>({
      services,
      method: 'tools/call',
      params,
      init,
      target: tool.label,
      singleUse: tool.singleUse ? singleUseAnswers(tool) : undefined,
      onRefusal: () => refusalResult(),
      describe: (r) => encodingOf(r, call.measured),
      invoke: (ctx) => invoke(services.logger, tool, args, ctx, call),
      task: taskLaunch(call, tool, args),
    })
  } catch (error) {
    // Thrown from inside the guarded work on purpose: a failed action releases its single-use
    // key (an honest retry may run), and only then becomes an isError result.
    if (error instanceof TesseraError) throw error
    return failure(services.logger, tool, error, deadline?.aborted ? deadline : exchange.signal)
  }
}

/**
 * How this call runs as a task, or undefined when it runs synchronously: the tool does not run
 * as one, the client did not declare the extension (a required task is then -32021 on
 * 2026-07-28), the tool decided against it for these arguments, or the caller cannot own a task.
 */
function taskLaunch(
  call: MethodCall,
  tool: RegisteredTool,
  args: Record<string, unknown>,
): TaskLaunch | undefined {
  const task = taskOf(tool)
  if (task === undefined || call.era !== 'modern') return undefined
  if (!declaresExtension(call.meta.clientCapabilities, TASKS_EXTENSION)) {
    if (task.support === 'required')
      throw missingExtension(TASKS_EXTENSION, `${tool.label} runs only as a task`)
    return undefined
  }
  if (task.when !== undefined && !task.when(args)) return undefined
  const { services } = call
  const owner = services.tasks.service.ownerOf(call.exchange.auth)
  if (owner === undefined) return undefined
  const meta = call.meta
  return {
    start: task.start,
    runner: services.tasks,
    body: toolTaskBody(services.logger, tool, args),
    auth: call.exchange.auth,
    waitUntil: call.exchange.waitUntil?.bind(call.exchange),
    record: (id, answers) =>
      services.tasks.service.newRecord({
        id,
        owner,
        ttlMs: task.ttlMs,
        pollIntervalMs: task.pollIntervalMs,
        call: {
          tool: tool.name,
          arguments: args as JsonObject,
          protocolVersion: meta.protocolVersion,
          clientCapabilities: capabilityDeclarations(meta.clientCapabilities),
          ...(meta.clientInfo === undefined ? {} : { clientInfo: meta.clientInfo }),
          ...(tool.scopes.length === 0 ? {} : { scopes: [...tool.scopes] }),
          answers,
          round: 0,
        },
      }),
  }
}

/** What a task of `tool` runs: its handler on `args`, failures and refusals as tool results. */
export function toolTaskBody(logger: Logger, tool: RegisteredTool, args: Record<string, unknown>): TaskBody {
  return {
    target: tool.label,
    run: async (ctx) => invoke(logger, tool, args, ctx),
    failure: (error, signal) => failure(logger, tool, error, signal),
    refusal: () => refusalResult(),
  }
}

/** The arguments a task stored for its tool, checked again: the tool may have been replaced since. */
export function taskArguments(tool: RegisteredTool, raw: unknown): Record<string, unknown> {
  return validateArguments(tool, raw)
}

function validateArguments(tool: RegisteredTool, raw: unknown): Record<string, unknown> {
  if (raw !== undefined && (typeof raw !== 'object' || raw === null || Array.isArray(raw))) {
    invalidParams('arguments must be an object.')
  }
  if (tool.input === undefined) return (raw ?? {}) as Record<string, unknown>
  const checked = tool.input.validate(raw ?? {})
  if (!checked.ok) invalidParams(`arguments${checked.path === '/' ? '' : checked.path}: ${checked.message}.`)
  return checked.value as Record<string, unknown>
}

/**
 * The handler's result, checked. A handler that answers at once is not awaited: its result is
 * checked in the same turn (what it throws, thrown from here, still reaches the caller's `await`
 * as a rejection would). `call`, when given, keeps the JSON the result was measured with.
 */
function invoke(
  logger: Logger,
  tool: RegisteredTool,
  args: Record<string, unknown>,
  ctx: RequestContext,
  call?: MethodCall,
): CallToolResult | Promise<CallToolResult> {
  const out = tool.handler(args, ctx)
  // Any thenable is awaited, as `await` would: not only this realm's promises.
  if (typeof (out as PromiseLike<unknown> | undefined)?.then === 'function')
    return Promise.resolve(out).then((settled) => checked(logger, tool, settled, call))
  return checked(logger, tool, out, call)
}

function checked(
  logger: Logger,
  tool: RegisteredTool,
  out: unknown,
  call: MethodCall | undefined,
): CallToolResult {
  if (typeof out === 'string')
    return withinBudget(logger, tool, checkOutput(logger, tool, textResult(out)), call)
  const fault = toolResultFault(out)
  // The tool ran: a bad result is recorded as a failure (a single-use key stays consumed).
  if (fault !== undefined) return reportInvalid(logger, tool, `returned an invalid result: ${fault}`)
  return withinBudget(logger, tool, checkOutput(logger, tool, out as CallToolResult), call)
}

/**
 * `out`, or a tool error when its JSON is larger than the tool's `limits.resultBytes`: the tool
 * ran, so a single-use record keeps that error as the outcome.
 */
function withinBudget(
  logger: Logger,
  tool: RegisteredTool,
  out: CallToolResult,
  call: MethodCall | undefined,
): CallToolResult {
  const { resultBytes } = tool.limits
  const json = JSON.stringify(out)
  const bytes = oversize(json, resultBytes)
  if (bytes === undefined) {
    if (call !== undefined) call.measured = { result: out, json }
    return out
  }
  logger.error(
    { event: 'tool_result_too_large', tool: tool.name, bytes, limit: resultBytes },
    `${tool.label} returned ${bytes} bytes, more than its limit of ${resultBytes}`,
  )
  return {
    content: [
      {
        type: 'text',
        text: `${tool.label} produced a result too large to send (${bytes} bytes; the limit is ${resultBytes}).`,
      },
    ],
    isError: true,
  }
}

/**
 * A result that breaks the tool's outputSchema becomes a failed result, not a throw: the tool
 * already ran, so a single-use record must keep this outcome rather than release the key.
 */
function checkOutput(logger: Logger, tool: RegisteredTool, out: CallToolResult): CallToolResult {
  if (tool.output === undefined || out.isError === true) return out
  const checked = tool.output.validate(out.structuredContent)
  if (checked.ok) return out
  return reportInvalid(
    logger,
    tool,
    `returned structuredContent that does not match its output schema at ${checked.path}: ${checked.message}`,
  )
}

function reportInvalid(logger: Logger, tool: RegisteredTool, problem: string): CallToolResult {
  logger.error({ event: 'tool_result_invalid', tool: tool.name }, `${tool.label} ${problem}`)
  return {
    content: [{ type: 'text', text: `${tool.label} produced an invalid result.` }],
    isError: true,
  }
}

function failure(logger: Logger, tool: RegisteredTool, error: unknown, signal: AbortSignal): CallToolResult {
  if (error instanceof ToolError) return { content: [{ type: 'text', text: error.message }], isError: true }
  if (!signal.aborted) {
    logger.error({ event: 'tool_failed', tool: tool.name, err: error }, `${tool.label} threw`)
  }
  return { content: [{ type: 'text', text: `${tool.label} failed.` }], isError: true }
}

function singleUseAnswers(tool: RegisteredTool) {
  return {
    what: `tools/call ${tool.name}`,
    onDuplicate(outcome: string): CallToolResult {
      const recorded = safeParse(outcome)
      const note = {
        type: 'text' as const,
        text: 'Already accepted: this answer was acted on before; nothing was done twice.',
      }
      // Marked in _meta so a client that reads only structured output can tell a replay apart.
      const _meta = withFields(recorded?._meta, { [REPLAYED_META]: true })
      if (recorded === undefined) return { content: [note], _meta }
      return withFields(recorded, { content: [note, ...recorded.content], _meta })
    },
    onInProgress(): CallToolResult {
      return textResult('This answer is being acted on right now; nothing new was started.')
    },
  }
}

function safeParse(outcome: string): CallToolResult | undefined {
  try {
    const value = JSON.parse(outcome) as CallToolResult
    return Array.isArray(value?.content) ? value : undefined
  } catch {
    return undefined
  }
}

/** `_meta` flag on a duplicate's result: the outcome is the recorded one, nothing ran again. */
export const REPLAYED_META = 'dev.tessera/replayed'

function refusalResult(): CallToolResult {
  return textResult('Nothing was done: the request was declined or cancelled.')
}

export function textResult(text: string): CallToolResult {
  return { content: [{ type: 'text', text }] }
}
