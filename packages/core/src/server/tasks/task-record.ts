/**
 * @module task-record
 * What a task store keeps per task, and the two wire shapes made from it: the `CreateTaskResult`
 * a `tools/call` answers with, and the detailed task of `tasks/get` and `notifications/tasks`.
 * The record also holds what a worker needs to run the call again after its inputs arrive (the
 * tool, its arguments, the client's capability declarations and identity, the answers gathered
 * so far), so any instance can resume it, and no more: a record is bounded in size.
 */
import type { TesseraError } from '../../errors.ts'
import type { JsonObject } from '../../protocol/jsonrpc/message.ts'
import type { ClientCapabilities } from '../../protocol/modern/capabilities.ts'
import type { InputRequest } from '../../protocol/modern/input-requests.ts'
import type { Implementation } from '../../protocol/modern/request-meta.ts'
import type { RecordedAnswer } from '../mrtr/round-state.ts'

/**
 * Where a task is: `working`, `input_required` (waiting for answers through `tasks/update`), or
 * ended `completed`, `failed` or `cancelled`.
 */
export type TaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled'

export const TERMINAL_STATUSES: ReadonlySet<TaskStatus> = new Set(['completed', 'failed', 'cancelled'])

/** One question a task waits on, under the key the client answers (unique over the task's life). */
export interface OutstandingInput {
  /** The key the handler asked under. */
  key: string
  /** Digest of the question, so the answer is recorded for this question only. */
  digest: string
  request: InputRequest
}

/** The call a task runs, as a worker needs it to run it again. */
export interface TaskCall {
  tool: string
  arguments: JsonObject
  protocolVersion: string
  clientCapabilities: ClientCapabilities
  clientInfo?: Implementation
  /**
   * The scopes the tool needed when the task began: every task method demands them, and the
   * scopes the tool needs now, of whoever touches the task.
   */
  scopes?: string[]
  /**
   * The `ctx.request.idempotencyKey` of the single-use answer the task acts on: a run after its worker
   * died gets it again, so a handler that stored it with its work finds that work.
   */
  idempotencyKey?: string
  /** Runs started because the worker holding the task died, so a task that kills workers ends. */
  reruns?: number
  /** Answers gathered so far, from the rounds before the task and from `tasks/update`. */
  answers: RecordedAnswer[]
  /** Runs of the handler so far (each ask that parks the task ends one). */
  round: number
}

/**
 * What a task store keeps per task: its status and what it reports, its owner and lifetime, the
 * lease of the worker running it, and the call it runs. Written only at the version the writer
 * read (`TaskStore.replace`).
 */
export interface TaskRecord {
  id: string
  /**
   * Bumped by every write; a store replaces a record only at the version the writer read, so
   * concurrent writers (a worker's renewal, a cancel, an answer) never overwrite each other.
   */
  version: number
  /** Digest of the principal that created the task: every task request is checked against it. */
  owner: string
  status: TaskStatus
  statusMessage?: string
  progress?: { progress: number; total?: number }
  /** Epoch milliseconds. */
  createdAt: number
  updatedAt: number
  /** How long the task is kept after its last change; null: until deleted by the store's owner. */
  ttlMs: number | null
  pollIntervalMs: number
  /** Epoch milliseconds after which the store may forget the task; null: never. */
  expiresAt: number | null
  /** The execution lease of the worker running it (status working). */
  lease?: { fence: string; until: number }
  /** tasks/cancel arrived while a worker ran it: the worker stops and the task ends cancelled. */
  cancelRequested?: boolean
  call: TaskCall
  /** Status input_required: the questions still unanswered, by the key the client answers. */
  inputs?: Record<string, OutstandingInput>
  /** Every input key the task ever used, so none is used twice. */
  usedKeys: string[]
  /** Status completed: what `tools/call` would have returned. */
  result?: JsonObject
  /** Status failed: the JSON-RPC error. */
  error?: { code: number; message: string; data?: unknown }
}

/** `_meta` key of a task's progress, on the detailed task. */
export const TASK_PROGRESS_META = 'dev.tessera/progress'

/** The task fields every task shape carries. */
function taskFields(task: TaskRecord): JsonObject {
  const out: JsonObject = { taskId: task.id, status: task.status }
  if (task.statusMessage !== undefined) out.statusMessage = task.statusMessage
  out.createdAt = new Date(task.createdAt).toISOString()
  out.lastUpdatedAt = new Date(task.updatedAt).toISOString()
  out.ttlMs = task.ttlMs
  out.pollIntervalMs = task.pollIntervalMs
  return out
}

/** The answer of a `tools/call` that started a task. */
export function createTaskResult(task: TaskRecord): JsonObject {
  return { resultType: 'task', ...taskFields(task) }
}

/** The task as `tasks/get` returns it and `notifications/tasks` carries it. */
export function detailedTask(task: TaskRecord): JsonObject {
  const out = taskFields(task)
  if (task.status === 'input_required' && task.inputs !== undefined) {
    const requests: Record<string, InputRequest> = {}
    for (const [key, input] of Object.entries(task.inputs)) requests[key] = input.request
    out.inputRequests = requests
  }
  if (task.status === 'completed' && task.result !== undefined) out.result = task.result
  if (task.status === 'failed' && task.error !== undefined) out.error = task.error as JsonObject
  if (task.progress !== undefined) out._meta = { [TASK_PROGRESS_META]: task.progress }
  return out
}

/**
 * The size a task's bound applies to: its record in JSON, leaving out the result (what the
 * handler returned, not what the client sent).
 */
export function recordBytes(task: TaskRecord): number {
  const { result: _, ...rest } = task
  return utf8ByteLength(JSON.stringify(rest))
}

/** How many bytes `text` takes in UTF-8 (a lone surrogate as the three of U+FFFD), without encoding it. */
export function utf8ByteLength(text: string): number {
  let bytes = text.length
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i)
    if (unit < 0x80) continue
    if (unit < 0x800) bytes += 1
    else if (unit >= 0xd800 && unit <= 0xdbff && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      // A surrogate pair: two units, four bytes.
      bytes += 2
      i++
    } else bytes += 2
  }
  return bytes
}

export function isTerminal(task: TaskRecord): boolean {
  return TERMINAL_STATUSES.has(task.status)
}

/** The task without the questions it waited on (every status but input_required has none). */
export function withoutInputs(task: TaskRecord): TaskRecord {
  const { inputs: _, ...rest } = task
  return rest
}

/** The task ended failed with the JSON-RPC error of `error`. */
export function failedWith(task: TaskRecord, error: TesseraError): TaskRecord {
  const wire: TaskRecord['error'] = { code: error.jsonrpcCode, message: error.message }
  if (error.data !== undefined) wire.data = error.data
  return { ...withoutInputs(task), status: 'failed', error: wire }
}

/** The task ended cancelled, as the client asked. */
export function cancelledByClient(task: TaskRecord): TaskRecord {
  return { ...withoutInputs(task), status: 'cancelled', statusMessage: 'Cancelled by the client.' }
}
