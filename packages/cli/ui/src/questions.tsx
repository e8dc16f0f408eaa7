/**
 * @module questions
 * What a server asks in one round of a tool call (an `InputRequiredResult`'s `inputRequests`), as
 * forms on the page: a form elicitation becomes a form generated from its schema, answered with
 * Accept, Decline or Cancel; what the console cannot answer says so.
 */
import type { Json } from './mcp-client.ts'
import { SchemaForm } from './schema-form.tsx'

/** One request of a round: its method and its params. */
export interface Question {
  method: string
  params: Json
}

export interface QuestionsProps {
  questions: Record<string, Question>
  /** The requestState of the round: a new round is a new set of forms. */
  state: string | undefined
  answers: Json
  answer: (key: string, response: Json) => void
}

/** The questions of one round, each a form until it is answered. */
export function Questions({ questions, state, answers, answer }: QuestionsProps) {
  return (
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
