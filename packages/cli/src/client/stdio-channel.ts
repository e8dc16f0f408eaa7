/**
 * @module stdio-channel
 * A server run as a child process, one JSON-RPC message per line on its stdin and stdout. What
 * the server sends is routed to the request it belongs to: the response by id, progress by its
 * token, anything else (log lines, questions) to the latest request in flight.
 */
import { type ChildProcessByStdio, spawn } from 'node:child_process'
import { createInterface } from 'node:readline'
import type { Readable, Writable } from 'node:stream'
import type { Channel, RequestTraffic } from './channel.ts'
import { answerServer } from './http-channel.ts'
import { isObject, isResponse, type JsonObject, type RpcId, TransportError } from './json-rpc.ts'

/** How much of the server's stderr is kept, to explain an exit. */
const STDERR_TAIL = 4_096

interface Waiting {
  resolve(message: JsonObject): void
  reject(error: Error): void
  traffic: RequestTraffic
  progressToken: unknown
}

export function stdioChannel(command: string): Channel {
  const child: ChildProcessByStdio<Writable, Readable, Readable> = spawn(command, {
    shell: true,
    stdio: ['pipe', 'pipe', 'pipe'],
  })
  const waiting = new Map<RpcId, Waiting>()
  let stderr = ''
  let gone: Error | undefined
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr = (stderr + chunk).slice(-STDERR_TAIL)
  })
  const fail = (error: Error) => {
    gone ??= error
    for (const entry of waiting.values()) entry.reject(gone)
    waiting.clear()
  }
  child.once('error', (error) =>
    fail(
      new TransportError(`cannot run '${command}' (${error.message}): check the command.`, {
        reason: 'unreachable',
        cause: error,
      }),
    ),
  )
  // A child that stopped reading has exited or is exiting: its exit says why, not this EPIPE.
  child.stdin.on('error', () => {})
  child.once('exit', (code, signal) => fail(exited(command, signal ?? `code ${code}`, stderr)))
  const write = (message: JsonObject): void => {
    if (gone) throw gone
    child.stdin.write(`${JSON.stringify(message)}\n`)
  }
  const latest = (): Waiting | undefined => [...waiting.values()].at(-1)
  createInterface({ input: child.stdout }).on('line', (line) => {
    let message: unknown
    try {
      message = JSON.parse(line)
    } catch {
      return
    }
    if (!isObject(message)) return
    if (isResponse(message)) {
      const entry = waiting.get(message.id as RpcId)
      waiting.delete(message.id as RpcId)
      entry?.resolve(message)
    } else if (message.id !== undefined) {
      // A reply to a child that is gone is lost with it; the request it belongs to hears why.
      answerServer(message, latest()?.traffic ?? {}, async (reply) => write(reply)).catch(() => {})
    } else {
      const token = (message.params as JsonObject | undefined)?.progressToken
      const owner =
        token === undefined ? latest() : [...waiting.values()].find((w) => w.progressToken === token)
      owner?.traffic.onNotification?.(message)
    }
  })
  return {
    request(request, _headers, traffic) {
      if (gone) return Promise.reject(gone)
      const progressToken = (request.params?._meta as JsonObject | undefined)?.progressToken
      return new Promise((resolve, reject) => {
        waiting.set(request.id, { resolve, reject, traffic, progressToken })
        write(request)
      })
    },
    async notify(message) {
      write(message)
    },
    setSession() {},
    async close() {
      if (child.exitCode !== null || child.signalCode !== null) return
      child.stdin.end()
      const exited = new Promise((resolve) => child.once('exit', resolve))
      const timer = setTimeout(() => child.kill('SIGTERM'), 2_000)
      await exited
      clearTimeout(timer)
    },
  }
}

/** The child ended: one line quoting the last line it wrote to stderr; all of it with `--verbose`. */
function exited(command: string, how: string, stderr: string): TransportError {
  const lines = stderr.trim().split('\n')
  const last = (lines.at(-1) ?? '').trim().slice(0, 200)
  const line =
    last === ''
      ? `'${command}' exited (${how}) before answering and wrote nothing to stderr: check that it serves MCP over stdio.`
      : `'${command}' exited (${how}) before answering, its stderr ending ${JSON.stringify(last)}; run again with --verbose to see its stderr.`
  return new TransportError(line, { reason: 'closed', detail: stderr.trim() || undefined })
}
