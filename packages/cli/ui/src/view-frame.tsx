/**
 * @module view-frame
 * A tool's view (MCP Apps) under its result, rendered as a host renders it: the page reads the
 * `ui://` resource the tool names, frames the console's sandbox page (`view-frame`: an opaque
 * origin under the view's own CSP) and hands it the view's HTML once it listens, then serves the
 * view through the ext-apps host side (`AppBridge`): the call's arguments and result go to the
 * view, the resources it reads are read, and the tools it calls run to their end, each question
 * of theirs asked under the frame, as the console asks a call's own.
 */
import type { AppBridge, PostMessageTransport } from '@modelcontextprotocol/ext-apps/app-bridge'
import { viewPermissionsPolicy } from '@tessera/apps'
import { VIEW_MIME_TYPE } from '@tessera/core/protocol'
import { useEffect, useRef, useState } from 'preact/hooks'
import { explainOutcome } from './explain-outcome.ts'
import type { ConsoleClient, Json, RpcOutcome, Tool } from './mcp-client.ts'
import { type Question, Questions } from './questions.tsx'
import { OutcomeView } from './result-view.tsx'

type ToolResult = Awaited<ReturnType<NonNullable<AppBridge['oncalltool']>>>
type ResourceResult = Awaited<ReturnType<NonNullable<AppBridge['onreadresource']>>>
type Ask = (questions: Record<string, Question>, state: string | undefined) => Promise<Json>

const HOST = { name: 'tessera-dev-console', version: '1' }
/** How many rounds of questions a call the view makes may take before the console stops it. */
const MAX_ROUNDS = 8
/** The tallest a view may make its frame, in CSS pixels. */
const MAX_HEIGHT = 2000

/** The URI of the view `tool` is shown with, when its metadata names one. */
export function viewOf(tool: Tool): string | undefined {
  const ui = tool._meta?.ui
  const uri = typeof ui === 'object' && ui !== null ? (ui as Json).resourceUri : undefined
  return typeof uri === 'string' ? uri : undefined
}

interface ViewFrameProps {
  client: ConsoleClient
  /** The call the result is of: the view is its tool's, and is sent its arguments. */
  call: { tool: Tool; args: Json }
  result: Json
  /** The tools the server listed, whose mirrored parameters the view's calls carry. */
  tools: readonly Tool[]
}

/** A round of questions from a call the view made, with what was answered so far. */
interface Asking {
  questions: Record<string, Question>
  state: string | undefined
  answers: Json
  resolve(answers: Json): void
}

export function ViewFrame({ client, call, result, tools }: ViewFrameProps) {
  const holder = useRef<HTMLDivElement>(null)
  const [unread, setUnread] = useState<RpcOutcome>()
  const [problem, setProblem] = useState<string>()
  const [asking, setAsking] = useState<Asking>()
  const uri = viewOf(call.tool)!

  useEffect(() => {
    let current = true
    let shown: { frame: HTMLIFrameElement; transport?: PostMessageTransport } | undefined
    const ask: Ask = (questions, state) =>
      new Promise((resolve) => setAsking({ questions, state, answers: {}, resolve }))
    const render = async () => {
      const read = await client.request('resources/read', { uri })
      if (!current) return
      const view = ((read.result?.contents as Json[] | undefined) ?? [])[0]
      if (read.result === undefined || read.error !== undefined) return setUnread(read)
      if (view?.mimeType !== VIEW_MIME_TYPE || typeof view.text !== 'string')
        return setProblem(`${uri} is not a view: its content is not ${VIEW_MIME_TYPE} text.`)
      // The host side is loaded when a view is first shown: a console without views never loads it.
      const apps = await import('@modelcontextprotocol/ext-apps/app-bridge')
      if (!current) return
      const { bridge, frame } = frameView(
        apps.AppBridge,
        holder.current!,
        call.tool.name,
        view.text,
        view._meta,
      )
      shown = { frame }
      bridge.oninitialized = () => {
        void bridge.sendToolInput({ arguments: call.args })
        void bridge.sendToolResult(result as ToolResult)
      }
      bridge.oncalltool = async ({ name, arguments: args }) =>
        (await callToEnd(client, toolNamed(tools, name), args ?? {}, ask)) as ToolResult
      bridge.onreadresource = async (params) =>
        resultOf(
          `Reading ${params.uri}`,
          await client.request('resources/read', { uri: params.uri }),
        ) as ResourceResult
      shown.transport = new apps.PostMessageTransport(frame.contentWindow!, frame.contentWindow!)
      await bridge.connect(shown.transport)
    }
    render().catch((error: unknown) => setProblem(`The view could not be shown: ${(error as Error).message}`))
    return () => {
      current = false
      void shown?.transport?.close()
      shown?.frame.remove()
    }
  }, [])

  const answer = (key: string, response: Json) => {
    if (asking === undefined) return
    const answers = { ...asking.answers, [key]: response }
    if (Object.keys(answers).length < Object.keys(asking.questions).length)
      return setAsking({ ...asking, answers })
    setAsking(undefined)
    asking.resolve(answers)
  }

  return (
    <section class="view" aria-label={`The view of ${call.tool.name}`}>
      <h3>
        View <code>{uri}</code>
      </h3>
      {unread && <OutcomeView action={`Reading the view ${uri}`} outcome={unread} />}
      {problem && (
        <p class="result error" role="status">
          {problem}
        </p>
      )}
      <div ref={holder} />
      {asking && <Questions {...asking} answer={answer} />}
    </section>
  )
}

/**
 * The console's sandbox page in a frame of `holder`, under the CSP and permissions of the view's
 * `_meta.ui` (in `meta`), with the host side that hands it the view's `html` once it listens.
 */
function frameView(
  Bridge: typeof AppBridge,
  holder: HTMLElement,
  toolName: string,
  html: string,
  meta: unknown,
): { bridge: AppBridge; frame: HTMLIFrameElement } {
  const ui = typeof meta === 'object' && meta !== null ? ((meta as Json).ui ?? {}) : {}
  const frame = document.createElement('iframe')
  frame.title = `The view of ${toolName}`
  frame.setAttribute('sandbox', 'allow-scripts allow-forms')
  const allow = viewPermissionsPolicy(ui as Json)
  if (allow !== '') frame.setAttribute('allow', allow)
  frame.src = `view-frame?ui=${encodeURIComponent(JSON.stringify(ui))}`
  holder.append(frame)
  const bridge = new Bridge(null, HOST, { serverTools: {}, serverResources: {} })
  bridge.onsandboxready = () => void bridge.sendSandboxResourceReady({ html })
  bridge.onsizechange = ({ height }) => {
    if (height !== undefined) frame.style.height = `${Math.min(Math.ceil(height), MAX_HEIGHT)}px`
  }
  return { bridge, frame }
}

/** The listed tool named `name`; a tool the list did not show is called with no mirrored parameter. */
function toolNamed(tools: readonly Tool[], name: string): Tool {
  return tools.find((tool) => tool.name === name) ?? { name, inputSchema: { type: 'object' } }
}

/** A call the view makes, each round's questions asked in the page, until the tool answers. */
async function callToEnd(client: ConsoleClient, tool: Tool, args: Json, ask: Ask): Promise<Json> {
  let round: Json = {}
  for (let rounds = 0; rounds < MAX_ROUNDS; rounds++) {
    const result = resultOf(`Calling ${tool.name}`, await client.callTool(tool, args, round))
    if (result.resultType !== 'input_required') return result
    const state = result.requestState as string | undefined
    const answers = await ask((result.inputRequests as Record<string, Question> | undefined) ?? {}, state)
    round = { inputResponses: answers, requestState: state }
  }
  throw new Error(`${tool.name} asked more than ${MAX_ROUNDS} rounds of questions`)
}

/** The result of `outcome`; an error saying why there is none, for the view to be told. */
function resultOf(action: string, outcome: RpcOutcome): Json {
  if (outcome.result !== undefined && outcome.error === undefined) return outcome.result
  throw new Error(explainOutcome(action, outcome)?.summary ?? `${action} brought no result`)
}
