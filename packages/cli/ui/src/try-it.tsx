/**
 * @module try-it
 * Runs a tool, reads a resource or gets a prompt as a 2026-07-28 client. A tool's arguments come
 * from a form generated from its input schema; when the tool asks (an `InputRequiredResult`), each
 * question becomes a form on the page, and the answers go back as the next round with the sealed
 * `requestState`. The last answer can be sent again, to see what a replay of it does.
 */
import { useEffect, useState } from 'preact/hooks'
import type { ConsoleClient, Json, RpcOutcome, Tool } from './mcp-client.ts'
import { ResultView } from './result-view.tsx'
import { SchemaForm } from './schema-form.tsx'

interface Resource {
  uri: string
  name?: string
}
interface Prompt {
  name: string
  description?: string
  arguments?: Array<{ name: string; description?: string; required?: boolean }>
}
type Target =
  | { kind: 'tool'; tool: Tool }
  | { kind: 'resource'; resource: Resource }
  | { kind: 'prompt'; prompt: Prompt }
interface Question {
  method: string
  params: Json
}

export function TryIt({ client }: { client: ConsoleClient }) {
  const [tools, setTools] = useState<Tool[]>([])
  const [resources, setResources] = useState<Resource[]>([])
  const [prompts, setPrompts] = useState<Prompt[]>([])
  const [target, setTarget] = useState<Target>()
  const [args, setArgs] = useState<Json>({})
  const [questions, setQuestions] = useState<Record<string, Question>>()
  const [state, setState] = useState<string>()
  const [answers, setAnswers] = useState<Json>({})
  const [lastRound, setLastRound] = useState<Json>()
  const [outcome, setOutcome] = useState<RpcOutcome>()
  const [busy, setBusy] = useState(false)

  useEffect(() => {
    // A server that cannot be listed (down, or asking for a token the page does not have) offers nothing to try.
    const listed = <T,>(method: string, field: string, set: (items: T[]) => void) =>
      client.list<T>(method, field).then(set, () => set([]))
    void listed<Tool>('tools/list', 'tools', setTools)
    void listed<Resource>('resources/list', 'resources', setResources)
    void listed<Prompt>('prompts/list', 'prompts', setPrompts)
  }, [client])

  const pick = (next: Target) => {
    setTarget(next)
    setQuestions(undefined)
    setOutcome(undefined)
    setLastRound(undefined)
  }

  const settle = (result: RpcOutcome) => {
    const body = result.result
    if (body?.resultType === 'input_required') {
      setQuestions((body.inputRequests as Record<string, Question> | undefined) ?? {})
      setState(body.requestState as string)
      setAnswers({})
      setOutcome(undefined)
    } else {
      setQuestions(undefined)
      setOutcome(result)
    }
  }

  const run = async (work: () => Promise<RpcOutcome>) => {
    setBusy(true)
    try {
      settle(await work())
    } catch (error) {
      setOutcome({ status: 0, error: { code: 0, message: String(error) } })
    } finally {
      setBusy(false)
    }
  }

  const callTool = (tool: Tool, values: Json) => {
    setArgs(values)
    setLastRound(undefined)
    void run(() => client.callTool(tool, values))
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
    void run(() => client.callTool(target.tool, args, round))
  }

  return (
    <section aria-labelledby="try-heading" class="panel">
      <h2 id="try-heading">Try it</h2>
      <label for="target">Tool, resource or prompt</label>
      <select
        id="target"
        value={targetKey(target)}
        onChange={(e) => {
          const [kind, name] = e.currentTarget.value.split('\u0000') as [string, string]
          if (kind === 'tool') pick({ kind, tool: tools.find((t) => t.name === name)! })
          if (kind === 'resource') pick({ kind, resource: resources.find((r) => r.uri === name)! })
          if (kind === 'prompt') pick({ kind, prompt: prompts.find((p) => p.name === name)! })
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
            <option value={`resource\u0000${r.uri}`}>{r.name ?? r.uri}</option>
          ))}
        </optgroup>
        <optgroup label="Prompts">
          {prompts.map((p) => (
            <option value={`prompt\u0000${p.name}`}>{p.name}</option>
          ))}
        </optgroup>
      </select>

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
          <button
            type="button"
            onClick={() => void run(() => client.request('resources/read', { uri: target.resource.uri }))}
          >
            Read
          </button>
        </div>
      )}
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
            onSubmit={(values) =>
              void run(() => client.request('prompts/get', { name: target.prompt.name, arguments: values }))
            }
          />
        </div>
      )}

      {questions !== undefined && (
        <section class="questions" aria-label="The server asks">
          {Object.entries(questions).map(([key, question]) => (
            <QuestionForm
              key={`${state}-${key}`}
              questionKey={key}
              question={question}
              answered={key in answers}
              onAnswer={(response) => answer(key, response)}
            />
          ))}
        </section>
      )}
      <div aria-live="polite">
        {busy && <p>Waiting for the server…</p>}
        {outcome && <ResultView outcome={outcome} />}
        {outcome && lastRound && target?.kind === 'tool' && (
          <button type="button" onClick={() => void run(() => client.callTool(target.tool, args, lastRound))}>
            Send the same answer again
          </button>
        )}
      </div>
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
  return `prompt\u0000${target.prompt.name}`
}
