/**
 * @module call
 * `tessera call <url> <tool>`: calls one tool in either era, asks the person at the terminal
 * whatever the server asks, shows progress as a bar, follows a task to its end (Ctrl-C cancels
 * it), and prints the result (text as text,
 * `structuredContent` as JSON). Exits 1 when the tool reports an error, 2 on a JSON-RPC error.
 */
import { paramHeaders } from '@tessera/core/protocol'
import { isObject } from '../client/json-rpc.ts'
import { terminalAsker } from '../terminal/ask-in-terminal.ts'
import { progressDisplay } from '../terminal/progress-display.ts'
import { renderToolResult } from '../terminal/render-result.ts'
import { ExitCode } from './exit-codes.ts'
import { UsageError } from './failure.ts'
import { givenAnswers } from './given-answers.ts'
import { connect, listAll, type TargetOptions } from './target.ts'
import { toolArguments } from './tool-arguments.ts'

export interface CallOptions extends TargetOptions {
  arg?: string[]
  json?: string
  /** Answers by question key, as JSON (`{"confirm":{"action":"accept","content":{…}}}`). */
  answers?: string
}

/** Resolves with the exit code of a call that ran; rejects with why it could not. */
export async function call(url: string | undefined, name: string, options: CallOptions): Promise<number> {
  const answers = givenAnswers(options.answers)
  const session = await connect(url, options)
  const progress = progressDisplay()
  try {
    const tools = isObject(session.server.capabilities.tools)
      ? await listAll(session, 'tools/list', 'tools')
      : []
    const tool = tools.find((t) => t.name === name)
    if (tool === undefined) {
      const known = tools.map((t) => String(t.name)).join(', ') || 'none'
      throw new UsageError(`The server has no tool '${name}' (tools: ${known}).`)
    }
    const schema = isObject(tool.inputSchema) ? tool.inputSchema : {}
    const args = toolArguments(schema, options.json, options.arg ?? [])
    const ask = terminalAsker(answers)
    // Ctrl-C while a task runs asks the server to stop it before the command ends.
    const interrupt = new AbortController()
    const onInterrupt = () => interrupt.abort()
    process.once('SIGINT', onInterrupt)
    const result = await session
      .request(
        'tools/call',
        { name, arguments: args },
        {
          headers: session.server.era === 'modern' ? paramHeaders({ name, inputSchema: schema }, args) : {},
          onProgress: (p) => progress.update(p),
          onLog: (log) => {
            progress.pause()
            process.stderr.write(
              `[${String(log.level)}] ${typeof log.data === 'string' ? log.data : JSON.stringify(log.data)}\n`,
            )
          },
          ask: (asked) => {
            progress.pause()
            return ask(asked)
          },
          signal: interrupt.signal,
        },
      )
      .finally(() => process.off('SIGINT', onInterrupt))
    progress.end()
    process.stdout.write(`${renderToolResult(result)}\n`)
    return result.isError === true ? ExitCode.failed : ExitCode.ok
  } finally {
    progress.end()
    await session.close()
  }
}
