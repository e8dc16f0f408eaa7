/**
 * @module try-it
 * Runs a tool, reads a resource (or one a template names) or gets a prompt as a 2026-07-28
 * client. A tool's arguments come from a form generated from its input schema, a template's
 * variables from a form of its URI template; when the tool asks (an `InputRequiredResult`), each
 * question becomes a form on the page, and the answers go back as the next round with the sealed
 * `requestState`. The last answer can be sent again, to see what a replay of it does. A skill's
 * SKILL.md is read like any resource. What the
 * server refused, listing included, is said in words, with what to do about it.
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
import { OutcomeView, ResultView } from './result-view.tsx'
import { SchemaForm } from './schema-form.tsx'
import { TemplateForm } from './template-form.tsx'

type Target =
  | { kind: 'tool'; tool: Tool }
  | { kind: 'resource'; resource: Resource }
  | { kind: 'template'; template: ResourceTemplate }
  | { kind: 'prompt'; prompt: Prompt }
  | { kind: 'skill'; skill: Skill }
interface Question {
  method: string
  params: Json
}

export function TryIt({ client, children }: { client: ConsoleClient; children?: preact.ComponentChildren }) {
  const offer = useOffer(client)
  const [target, setTarget] = useState<Target>()
  const [args, setArgs] = useState<Json>({})
  const [questions, setQuestions] = useState<Record<string, Question>>()
  const [state, setState] = useState<string>()
  const [answers, setAnswers] = useState<Json>({})
  const [lastRound, setLastRound] = useState<Json>()
  const [outcome, setOutcome] = useState<{ action: string; outcome: RpcOutcome }>()
  const [readUri, setReadUri] = useState<string>()
  const [busy, setBusy] = useState(false)

  const pick = (next: Target) => {
    setTarget(next)
    setQuestions(undefined)
    setOutcome(undefined)
    setLastRound(undefined)
    setReadUri(undefined)
  }

  const settle = (action: string, result: RpcOutcome) => {
    const body = result.result
    if (body?.resultType === 'input_required') {
      setQuestions((body.inputRequests as Record<string, Question> | undefined) ?? {})
      setState(body.requestState as string)
      setAnswers({})
      setOutcome(undefined)
    } else {
      setQuestions(undefined)
      setOutcome({ action, outcome: result })
    }
  }

  const run = async (action: string, work: () => Promise<RpcOutcome>) => {
    setBusy(true)
    try {
      settle(action, await work())
    } catch (error) {
      settle(action, unanswered(`the console failed: ${(error as Error).message}`, client.hasToken))
    } finally {
      setBusy(false)
    }
  }

  const callTool = (tool: Tool, values: Json) => {
    setArgs(values)
    setLastRound(undefined)
    void run(`Calling ${tool.name}`, () => client.callTool(tool, values))
  }

  const read = (uri: string) => {
    setReadUri(uri)
    void run(`Reading ${uri}`, () => client.request('resources/read', { uri }))
  }

  const answer = (key: string, response: Json) => {
    const all = { ...answers, [key]: response }
    setAnswers(all)
    if (
      target?.kind !== 'tool' ||
      questions === undefined ||
      Object.keys(all).length < Object.keys(questions).length
    )
      return
    const round = { inputResponses: all, requestState: state }
    setLastRound(round)
    void run(`Answering ${target.tool.name}`, () => client.callTool(target.tool, args, round))
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

      {questions !== undefined && (
        <Questions questions={questions} round={state} answers={answers} answer={answer} />
      )}
      <Replies
        busy={busy}
        outcome={outcome}
        resend={
          outcome && lastRound && target?.kind === 'tool'
            ? () =>
                void run(`Answering ${target.tool.name} again`, () =>
                  client.callTool(target.tool, args, lastRound),
                )
            : undefined
        }
      />
    </section>
  )
}

function QuestionForm(props: {
  questionKey: string
  question: Question
  answered: boolean
  onAnswer(response: Json): void
}) {
  const { questionKey, question, answered, onAnswer } = props
  if (answered) return <p>Answered “{questionKey}”.</p>
  if (question.method !== 'elicitation/create' || question.params.mode === 'url') {
    return (
      <p>
        “{questionKey}” asks <code>{question.method}</code>, which the console does not answer.
      </p>
    )
  }
  return (
    <fieldset class="question">
      <legend>{String(question.params.message ?? questionKey)}</legend>
      <SchemaForm
        id={`q-${questionKey}`}
        schema={(question.params.requestedSchema as Json | undefined) ?? { type: 'object', properties: {} }}
        submitLabel="Accept"
        onSubmit={(content) => onAnswer({ action: 'accept', content })}
      >
        <button type="button" onClick={() => onAnswer({ action: 'decline' })}>
          Decline
        </button>
        <button type="button" onClick={() => onAnswer({ action: 'cancel' })}>
          Cancel
        </button>
      </SchemaForm>
    </fieldset>
  )
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

interface QuestionsProps {
  questions: Record<string, Question>
  /** The requestState of the round: a new round is a new set of forms. */
  round: string | undefined
  answers: Json
  answer: (key: string, response: Json) => void
}

/** The questions of one round, each a form until it is answered. */
function Questions({ questions, round, answers, answer }: QuestionsProps) {
  return (
    <section class="questions" aria-label="The server asks">
      {Object.entries(questions).map(([key, question]) => (
        <QuestionForm
          key={`${round}-${key}`}
          questionKey={key}
          question={question}
          answered={key in answers}
          onAnswer={(response) => answer(key, response)}
        />
      ))}
    </section>
  )
}

interface RepliesProps {
  busy: boolean
  outcome: { action: string; outcome: RpcOutcome } | undefined
  /** Sends the last round's answers again, when the last call answered a round. */
  resend: (() => void) | undefined
}

/** What the server answered, announced as it comes; and sending the same answer again. */
function Replies({ busy, outcome, resend }: RepliesProps) {
  return (
    <div aria-live="polite">
      {busy && <p>Waiting for the server…</p>}
      {outcome && <ResultView action={outcome.action} outcome={outcome.outcome} />}
      {resend && (
        <button type="button" onClick={resend}>
          Send the same answer again
        </button>
      )}
    </div>
  )
}
