/**
 * @module tools
 * `tools/list` and `tools/call`. A call resolves the tool, checks `Mcp-Param-*` mirrors, validates
 * the arguments before the handler runs (-32602 naming the path), and validates structured output.
 * A handler that throws becomes `isError: true` with a safe message; its stack stays in the logs.
 */
import { TesseraError } from '../../errors.ts'
import type { JsonObject } from '../../protocol/jsonrpc/message.ts'
import { checkParamHeaders } from '../../protocol/modern/param-headers/index.ts'
import type { InputRequired } from '../mrtr/input-required.ts'
import type { InputRequiredWire } from '../mrtr/interactive.ts'
import { runInteractive } from '../mrtr/interactive.ts'
import { paginate } from '../pagination.ts'
import type { RegisteredTool } from '../registry/tools.ts'
import { ToolError } from '../tool-error.ts'
import type { CallToolResult } from '../types.ts'
import { contextInit, invalidParams, type MethodCall } from './method-call.ts'

export function listTools({ core, params }: MethodCall): JsonObject {
  const page = paginate('tools', core.tools.list(), params.cursor, core.pageSize)
  const result: JsonObject = { tools: page.items }
  if (page.nextCursor !== undefined) result.nextCursor = page.nextCursor
  result.ttlMs = core.cache.toolsList.ttlMs
  result.cacheScope = core.cache.toolsList.cacheScope
  return result
}

export async function callTool(call: MethodCall): Promise<JsonObject> {
  const { core, params, exchange } = call
  const name = params.name
  if (typeof name !== 'string') invalidParams('name must be a string.')
  const tool = core.tools.get(name)
  if (tool === undefined) invalidParams(`unknown tool '${clipName(name)}'.`, { name: clipName(name) })
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
      singleUse: tool.singleUse ? singleUseAnswers(tool) : undefined,
      onRefusal: () => textResult('Nothing was done: the request was declined or cancelled.'),
      describe: (r) => JSON.stringify(r),
      invoke: (ctx) => invoke(call, tool, args, ctx),
    })
  } catch (error) {
    // Thrown from inside the guarded work on purpose: a failed action releases its single-use
    // key (an honest retry may run), and only then becomes an isError result.
    if (isFrameworkError(error)) throw error
    return failure(call, tool, error) as unknown as JsonObject
  }
  return result as unknown as JsonObject
}

function isFrameworkError(error: unknown): boolean {
  if (error instanceof TesseraError) return true
  const code = error instanceof Error ? (error as { code?: unknown }).code : undefined
  return typeof code === 'string' && code.startsWith('TESSERA_')
}

function validateArguments(tool: RegisteredTool, raw: unknown): unknown {
  if (raw !== undefined && (typeof raw !== 'object' || raw === null || Array.isArray(raw))) {
    invalidParams('arguments must be an object.')
  }
  if (tool.input === undefined) return raw ?? {}
  const checked = tool.input.validate(raw ?? {})
  if (!checked.ok) invalidParams(`arguments${checked.path === '/' ? '' : checked.path}: ${checked.message}.`)
  return checked.value
}

async function invoke(
  call: MethodCall,
  tool: RegisteredTool,
  args: unknown,
  ctx: Parameters<RegisteredTool['handler']>[1],
): Promise<CallToolResult | InputRequired> {
  const out = await tool.handler(args as Record<string, unknown>, ctx)
  if (typeof out === 'string') return textResult(out)
  return 'content' in out ? checkOutput(call, tool, out) : out
}

/**
 * A result that breaks the tool's outputSchema becomes a failed result, not a throw: the tool
 * already ran, so a single-use record must keep this outcome rather than release the key.
 */
function checkOutput(call: MethodCall, tool: RegisteredTool, out: CallToolResult): CallToolResult {
  if (tool.output === undefined || out.isError === true) return out
  const checked = tool.output.validate(out.structuredContent)
  if (checked.ok) return out
  call.core.logger.error(
    { event: 'tool_output_invalid', tool: tool.name, path: checked.path, detail: checked.message },
    'tool returned structured content that does not match its outputSchema',
  )
  return {
    content: [
      { type: 'text', text: `Tool '${tool.name}' produced a result that does not match its output schema.` },
    ],
    isError: true,
  }
}

function failure(call: MethodCall, tool: RegisteredTool, error: unknown): CallToolResult {
  if (error instanceof ToolError) return { content: [{ type: 'text', text: error.message }], isError: true }
  if (!call.exchange.signal.aborted) {
    call.core.logger.error({ event: 'tool_failed', tool: tool.name, err: error }, 'tool handler threw')
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

function clipName(name: string): string {
  return name.length > 128 ? `${name.slice(0, 128)}…` : name
}
