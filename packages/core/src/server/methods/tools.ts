/**
 * @module tools
 * `tools/list` and `tools/call`. A call resolves the tool, checks `Mcp-Param-*` mirrors, validates
 * the arguments before the handler runs (-32602 naming the path), and checks what the handler
 * returned: its shape, and its structured output against `output`. A handler that throws becomes
 * `isError: true` with a safe message; its stack stays in the logs.
 */
import { TesseraError } from '../../errors.ts'
import type { JsonObject } from '../../protocol/jsonrpc/message.ts'
import { checkParamHeaders } from '../../protocol/modern/param-headers/index.ts'
import { listed, requireScopes } from '../authorization.ts'
import type { RequestContext } from '../context.ts'
import { type InputRequiredWire, runInteractive } from '../mrtr/interactive.ts'
import { paginate } from '../pagination.ts'
import type { RegisteredTool } from '../registry/tools.ts'
import { ToolError } from '../tool-error.ts'
import type { CallToolResult } from '../types.ts'
import { clipped, contextInit, invalidParams, type MethodCall } from './method-call.ts'
import { toolResultFault } from './result-shape.ts'

export function listTools({ core, params, exchange }: MethodCall): JsonObject {
  const [items, hint] = listed(
    core,
    core.tools.list(),
    () => core.tools.listFor(exchange.auth),
    core.cache.toolsList,
  )
  const page = paginate('tools', items, params.cursor, core.pageSize)
  const result: JsonObject = { tools: page.items }
  if (page.nextCursor !== undefined) result.nextCursor = page.nextCursor
  result.ttlMs = hint.ttlMs
  result.cacheScope = hint.cacheScope
  return result
}

export async function callTool(call: MethodCall): Promise<JsonObject> {
  const { core, params, exchange } = call
  const name = params.name
  if (typeof name !== 'string') invalidParams('name must be a string.')
  const tool = core.tools.get(name)
  if (tool === undefined) invalidParams(`unknown tool '${clipped(name)}'.`, { name: clipped(name) })
  requireScopes(tool.scopes, exchange.auth, `Tool '${tool.name}'`)
  if (exchange.headers !== undefined && call.era === 'modern' && tool.mirror.length > 0) {
    const fault = checkParamHeaders(tool.mirror, params.arguments, exchange.headers)
    if (fault) throw new TesseraError('TESSERA_HEADER_MISMATCH', fault.message)
  }
  const args = validateArguments(tool, params.arguments)
  let result: CallToolResult | InputRequiredWire
  try {
    result = await runInteractive<CallToolResult>({
      core,
      method: 'tools/call',
      params,
      init: contextInit(call),
      target: `Tool '${tool.name}'`,
      singleUse: tool.singleUse ? singleUseAnswers(tool) : undefined,
      onRefusal: () => textResult('Nothing was done: the request was declined or cancelled.'),
      describe: (r) => JSON.stringify(r),
      invoke: (ctx) => invoke(call, tool, args, ctx),
    })
  } catch (error) {
    // Thrown from inside the guarded work on purpose: a failed action releases its single-use
    // key (an honest retry may run), and only then becomes an isError result.
    if (error instanceof TesseraError) throw error
    return failure(call, tool, error) as unknown as JsonObject
  }
  return result as unknown as JsonObject
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

async function invoke(
  call: MethodCall,
  tool: RegisteredTool,
  args: Record<string, unknown>,
  ctx: RequestContext,
): Promise<CallToolResult> {
  const out = await tool.handler(args, ctx)
  if (typeof out === 'string') return checkOutput(call, tool, textResult(out))
  const fault = toolResultFault(out)
  // The tool ran: a bad result is recorded as a failure (a single-use key stays consumed).
  if (fault !== undefined) return reportInvalid(call, tool, `returned an invalid result: ${fault}`)
  return checkOutput(call, tool, out as CallToolResult)
}

/**
 * A result that breaks the tool's outputSchema becomes a failed result, not a throw: the tool
 * already ran, so a single-use record must keep this outcome rather than release the key.
 */
function checkOutput(call: MethodCall, tool: RegisteredTool, out: CallToolResult): CallToolResult {
  if (tool.output === undefined || out.isError === true) return out
  const checked = tool.output.validate(out.structuredContent)
  if (checked.ok) return out
  return reportInvalid(
    call,
    tool,
    `returned structuredContent that does not match its output schema at ${checked.path}: ${checked.message}`,
  )
}

function reportInvalid(call: MethodCall, tool: RegisteredTool, problem: string): CallToolResult {
  call.core.logger.error({ event: 'tool_result_invalid', tool: tool.name }, `Tool '${tool.name}' ${problem}`)
  return {
    content: [{ type: 'text', text: `Tool '${tool.name}' produced an invalid result.` }],
    isError: true,
  }
}

function failure(call: MethodCall, tool: RegisteredTool, error: unknown): CallToolResult {
  if (error instanceof ToolError) return { content: [{ type: 'text', text: error.message }], isError: true }
  if (!call.exchange.signal.aborted) {
    call.core.logger.error({ event: 'tool_failed', tool: tool.name, err: error }, `Tool '${tool.name}' threw`)
  }
  return { content: [{ type: 'text', text: `Tool '${tool.name}' failed.` }], isError: true }
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
      const _meta = { ...recorded?._meta, [REPLAYED_META]: true }
      if (recorded === undefined) return { content: [note], _meta }
      return { ...recorded, content: [note, ...recorded.content], _meta }
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

export function textResult(text: string): CallToolResult {
  return { content: [{ type: 'text', text }] }
}
