/**
 * @module try-it
 * Runs a tool, reads a resource (or one a template names) or gets a prompt as a 2026-07-28
 * client. A tool's arguments come from a form generated from its input schema, a template's
 * variables from a form of its URI template; when the tool asks (an `InputRequiredResult`), each
 * question becomes a form on the page, and the answers go back as the next round with the sealed
 * `requestState`. The last answer can be sent again, to see what a replay of it does. A skill's
 * SKILL.md is read like any resource, and a tool that names a view shows it under its result.
 * What the server refused, listing included, is said in words, with what to do about it.
 */
import { useEffect, useState } from 'preact/hooks'
import { type ConsoleClient, type Json, type RpcOutcome, type Tool, unanswered } from './mcp-client.ts'
import {
  loadOffer,
  NOTHING_OFFERED,
  type Offer,
  type Prompt,
  type Resource,
  type ResourceTemplate,
  type Skill,
} from './offer.ts'
import { type Question, Questions } from './questions.tsx'
import { OutcomeView, ResultView } from './result-view.tsx'
import { SchemaForm } from './schema-form.tsx'
import { TemplateForm } from './template-form.tsx'
import { ViewFrame, viewOf } from './view-frame.tsx'

type Target =
  | { kind: 'tool'; tool: Tool }
  | { kind: 'resource'; resource: Resource }
  | { kind: 'template'; template: ResourceTemplate }
  | { kind: 'prompt'; prompt: Prompt }
  | { kind: 'skill'; skill: Skill }
/** What the last request brought, and the call it was when it was a tool's. */
interface Reply {
  /** Counts the replies: a new one is a new view, even of the same tool. */
  id: number
  action: string
  outcome: RpcOutcome
  call?: { tool: Tool; args: Json }
}

/** The questions of the round the server asked last, with the answers given so far. */
interface Asking {
  questions: Record<string, Question>
  state: string | undefined
  answers: Json
}

let replies = 0

export function TryIt({ client, children }: { client: ConsoleClient; children?: preact.ComponentChildren }) {
  const offer = useOffer(client)
  const [target, setTarget] = useState<Target>()
  const [args, setArgs] = useState<Json>({})
  const { asking, setAsking, outcome, busy, run, clear } = useReplies(client)
  const [lastRound, setLastRound] = useState<Json>()
  const [readUri, setReadUri] = useState<string>()

  const pick = (next: Target) => {
    setTarget(next)
    clear()
    setLastRound(undefined)
    setReadUri(undefined)
  }

  const callRound = (action: string, tool: Tool, values: Json, round?: Json) =>
    void run(action, () => client.callTool(tool, values, round), { tool, args: values })

  const callTool = (tool: Tool, values: Json) => {
    setArgs(values)
    setLastRound(undefined)
    callRound(`Calling ${tool.name}`, tool, values)
  }

  const read = (uri: string) => {
    setReadUri(uri)
    void run(`Reading ${uri}`, () => client.request('resources/read', { uri }))
  }

  const answer = (key: string, response: Json) => {
    if (asking === undefined || target?.kind !== 'tool') return
    const all = { ...asking.answers, [key]: response }
    setAsking({ ...asking, answers: all })
    if (Object.keys(all).length < Object.keys(asking.questions).length) return
    const round = { inputResponses: all, requestState: asking.state }
    setLastRound(round)
    callRound(`Answering ${target.tool.name}`, target.tool, args, round)
  }

  return (
    <section aria-labelledby="try-heading" class="panel">
      <h2 id="try-heading">Try it</h2>
      {children}
      {offer === undefined && <p>Asking the server what it offers…</p>}
      {offer?.refused.map(({ method, outcome: refused }) => (
        <OutcomeView action={method} outcome={refused} />
      ))}
      <TargetPicker offer={offer ?? NOTHING_OFFERED} target={target} pick={pick} />
      {target !== undefined && (
        <TargetPanel
          target={target}
          readUri={readUri}
          callTool={callTool}
          read={read}
          getPrompt={(name, values) =>
            void run(`Getting ${name}`, () => client.request('prompts/get', { name, arguments: values }))
          }
        />
      )}
      {asking && <Questions {...asking} answer={answer} />}
      <Replies
        client={client}
        busy={busy}
        outcome={outcome}
        tools={offer?.tools ?? []}
        resend={
          outcome && lastRound && target?.kind === 'tool'
            ? () => callRound(`Answering ${target.tool.name} again`, target.tool, args, lastRound)
            : undefined
        }
      />
    </section>
  )
}

/**
 * The requests the page makes and what they brought: the reply to show, or the questions of the
 * round the server asked; and whether one is under way.
 */
function useReplies(client: ConsoleClient) {
  const [asking, setAsking] = useState<Asking>()
  const [outcome, setOutcome] = useState<Reply>()
  const [busy, setBusy] = useState(false)

  const settle = (action: string, result: RpcOutcome, call?: Reply['call']) => {
    const body = result.result
    if (body?.resultType === 'input_required') {
      const questions = (body.inputRequests as Record<string, Question> | undefined) ?? {}
      setAsking({ questions, state: body.requestState as string, answers: {} })
      setOutcome(undefined)
    } else {
      setAsking(undefined)
      setOutcome({ id: ++replies, action, outcome: result, ...(call === undefined ? {} : { call }) })
    }
  }

  const run = async (action: string, work: () => Promise<RpcOutcome>, call?: Reply['call']) => {
    setBusy(true)
    try {
      settle(action, await work(), call)
    } catch (error) {
      settle(action, unanswered(`the console failed: ${(error as Error).message}`, client.hasToken), call)
    } finally {
      setBusy(false)
    }
  }

  const clear = () => {
    setAsking(undefined)
    setOutcome(undefined)
  }
  return { asking, setAsking, outcome, busy, run, clear }
}

/** The select's value for a target: its kind and name, which no name can contain the separator of. */
function targetKey(target: Target | undefined): string {
  if (target === undefined) return ''
  if (target.kind === 'tool') return `tool\u0000${target.tool.name}`
  if (target.kind === 'resource') return `resource\u0000${target.resource.uri}`
  if (target.kind === 'template') return `template\u0000${target.template.uriTemplate}`
  if (target.kind === 'skill') return `skill\u0000${target.skill.uri}`
  return `prompt\u0000${target.prompt.name}`
}

/** What the server offers, asked again under each new client (a new token). */
function useOffer(client: ConsoleClient): Offer | undefined {
  const [offer, setOffer] = useState<Offer>()
  useEffect(() => {
    // A new client is a new token: what the server offers is asked again, under it.
    let current = true
    setOffer(undefined)
    void loadOffer(client).then((loaded) => {
      if (current) setOffer(loaded)
    })
    return () => {
      current = false
    }
  }, [client])
  return offer
}

/** The choice of what to try: a tool, a resource, a template or a prompt. */
function TargetPicker({
  offer,
  target,
  pick,
}: {
  offer: Offer
  target?: Target
  pick: (next: Target) => void
}) {
  const { tools, resources, templates, prompts, skills } = offer
  return (
    <>
      <label for="target">Tool, resource, prompt or skill</label>
      <select
        id="target"
        value={targetKey(target)}
        onChange={(e) => {
          const [kind, name] = e.currentTarget.value.split('\u0000') as [string, string]
          if (kind === 'tool') pick({ kind, tool: tools.find((t) => t.name === name)! })
          if (kind === 'resource') pick({ kind, resource: resources.find((r) => r.uri === name)! })
          if (kind === 'template') pick({ kind, template: templates.find((t) => t.uriTemplate === name)! })
          if (kind === 'prompt') pick({ kind, prompt: prompts.find((p) => p.name === name)! })
          if (kind === 'skill') pick({ kind, skill: skills.find((s) => s.uri === name)! })
        }}
      >
        <option value="">Choose…</option>
        <optgroup label="Tools">
          {tools.map((t) => (
            <option value={`tool\u0000${t.name}`}>{t.title ?? t.name}</option>
          ))}
        </optgroup>
        <optgroup label="Resources">
          {resources.map((r) => (
            <option value={`resource\u0000${r.uri}`}>{r.title ?? r.name ?? r.uri}</option>
          ))}
        </optgroup>
        <optgroup label="Resource templates">
          {templates.map((t) => (
            <option value={`template\u0000${t.uriTemplate}`}>{t.title ?? t.name ?? t.uriTemplate}</option>
          ))}
        </optgroup>
        <optgroup label="Prompts">
          {prompts.map((p) => (
            <option value={`prompt\u0000${p.name}`}>{p.name}</option>
          ))}
        </optgroup>
        <optgroup label="Skills">
          {skills.map((s) => (
            <option value={`skill\u0000${s.uri}`}>{s.frontmatter.name ?? s.uri}</option>
          ))}
        </optgroup>
      </select>
    </>
  )
}

interface TargetPanelProps {
  target: Target
  readUri: string | undefined
  callTool: (tool: Tool, values: Json) => void
  read: (uri: string) => void
  getPrompt: (name: string, values: Json) => void
}

/** The form of the chosen target: its arguments, its URI or its template's variables. */
function TargetPanel({ target, readUri, callTool, read, getPrompt }: TargetPanelProps) {
  return (
    <>
      {target?.kind === 'tool' && (
        <div>
          <h3>{target.tool.name}</h3>
          {target.tool.description && <p>{target.tool.description}</p>}
          <SchemaForm
            key={target.tool.name}
            id="args"
            schema={target.tool.inputSchema}
            submitLabel="Call"
            onSubmit={(values) => callTool(target.tool, values)}
          />
        </div>
      )}
      {target?.kind === 'resource' && (
        <div>
          <h3>{target.resource.uri}</h3>
          <button type="button" onClick={() => read(target.resource.uri)}>
            Read
          </button>
        </div>
      )}
      {target?.kind === 'template' && (
        <div>
          <h3>{target.template.uriTemplate}</h3>
          {target.template.description && <p>{target.template.description}</p>}
          <TemplateForm key={target.template.uriTemplate} template={target.template} onRead={read} />
          {readUri !== undefined && (
            <p>
              URI read: <code>{readUri}</code>
            </p>
          )}
        </div>
      )}
      {target?.kind === 'skill' && <SkillPanel skill={target.skill} read={read} />}
      {target?.kind === 'prompt' && (
        <div>
          <h3>{target.prompt.name}</h3>
          <SchemaForm
            key={target.prompt.name}
            id="prompt"
            schema={{
              type: 'object',
              properties: Object.fromEntries(
                (target.prompt.arguments ?? []).map((a) => [
                  a.name,
                  { type: 'string', description: a.description },
                ]),
              ),
              required: (target.prompt.arguments ?? []).filter((a) => a.required).map((a) => a.name),
            }}
            submitLabel="Get"
            onSubmit={(values) => getPrompt(target.prompt.name, values)}
          />
        </div>
      )}
    </>
  )
}

/** A skill: its name, what it is for, the URI of its SKILL.md, and reading that file. */
function SkillPanel({ skill, read }: { skill: Skill; read: (uri: string) => void }) {
  return (
    <div>
      <h3>{skill.frontmatter.name ?? skill.uri}</h3>
      {skill.frontmatter.description && <p>{skill.frontmatter.description}</p>}
      <p>
        <code>{skill.uri}</code>
      </p>
      <button type="button" onClick={() => read(skill.uri)}>
        Read SKILL.md
      </button>
    </div>
  )
}

interface RepliesProps {
  client: ConsoleClient
  busy: boolean
  outcome: Reply | undefined
  /** The tools the server listed, for the calls a tool's view makes. */
  tools: readonly Tool[]
  /** Sends the last round's answers again, when the last call answered a round. */
  resend: (() => void) | undefined
}

/**
 * What the server answered, announced as it comes; sending the same answer again; and the view of
 * a tool that names one, under its result.
 */
function Replies({ client, busy, outcome, tools, resend }: RepliesProps) {
  const call = outcome?.call
  const result = outcome?.outcome.result
  return (
    <>
      <div aria-live="polite">
        {busy && <p>Waiting for the server…</p>}
        {outcome && <ResultView action={outcome.action} outcome={outcome.outcome} />}
        {resend && (
          <button type="button" onClick={resend}>
            Send the same answer again
          </button>
        )}
      </div>
      {call !== undefined && result !== undefined && viewOf(call.tool) !== undefined && (
        <ViewFrame key={outcome!.id} client={client} call={call} result={result} tools={tools} />
      )}
    </>
  )
}
