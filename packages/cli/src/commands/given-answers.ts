/**
 * @module given-answers
 * `call --answers '{…}'`: answers by question key, given on the command line instead of asked.
 * They are checked when read (JSON, an object of objects, an elicitation answer's action and
 * content) and again when a question takes one (the shape its method needs), so a malformed
 * answer is refused naming its key instead of being sent to a server that would only ask again.
 * A question asked again after its answer was sent (under its key, or a task's `key.2`) means the
 * server did not take the answer: refused, not sent again.
 */
import { isObject, type JsonObject } from '../client/json-rpc.ts'
import type { Asked } from '../client/session.ts'
import { fieldType } from '../terminal/render-offer.ts'
import { UsageError } from './failure.ts'

/** The given answer to a question, or undefined to ask it at the terminal. */
export type GivenAnswers = (asked: Asked) => JsonObject | undefined

const EXAMPLE = `'{"confirm":{"action":"accept","content":{"ok":true}}}'`
const ACTIONS = ['accept', 'decline', 'cancel']

/** What an answer to each kind of question must hold, and how to say so. */
const SHAPES: Record<string, { what: string; fits(answer: JsonObject): boolean; expected: string }> = {
  'elicitation/create': {
    what: 'a form',
    fits: (answer) => answer.action !== undefined,
    expected: '{"action":"accept","content":{…}}, {"action":"decline"} or {"action":"cancel"}',
  },
  'sampling/createMessage': {
    what: 'a sampling request',
    fits: (answer) =>
      typeof answer.role === 'string' &&
      typeof answer.model === 'string' &&
      typeof answer.content === 'object',
    expected: '{"role":"assistant","content":{"type":"text","text":"…"},"model":"…"}',
  },
  'roots/list': {
    what: 'a roots request',
    fits: (answer) => Array.isArray(answer.roots),
    expected: '{"roots":[{"uri":"file:///…"}]}',
  },
}

export function givenAnswers(text: string | undefined): GivenAnswers {
  const given = text === undefined ? {} : parse(text)
  const sent = new Set<string>()
  return (asked) => {
    const { key } = asked
    if (key === undefined) return undefined
    // A session asks again under the same key; a task under `key.2`, `key.3`, … (it never reuses one).
    const first = Object.hasOwn(given, key) ? key : /^(.+)\.\d+$/.exec(key)?.[1]
    if (first !== undefined && sent.has(first)) throw new UsageError(notTaken(first, asked))
    if (!Object.hasOwn(given, key)) return undefined
    const shape = SHAPES[asked.method]
    if (shape !== undefined && !shape.fits(given[key]!))
      throw new UsageError(
        `--answers: the answer for '${key}' does not answer ${shape.what} (${asked.method}): give ${shape.expected}.`,
      )
    sent.add(key)
    return given[key]
  }
}

function parse(text: string): Record<string, JsonObject> {
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch (error) {
    throw new UsageError(
      `--answers is not JSON (${(error as Error).message}): give an object of answers by question key, e.g. ${EXAMPLE}.`,
    )
  }
  if (!isObject(parsed))
    throw new UsageError(
      `--answers must be an object of answers by question key, not ${kindOf(parsed)}: e.g. ${EXAMPLE}.`,
    )
  for (const [key, answer] of Object.entries(parsed)) checkAnswer(key, answer)
  return parsed as Record<string, JsonObject>
}

/** What every answer must be, whatever it answers; an `action` makes it an elicitation answer. */
function checkAnswer(key: string, answer: unknown): void {
  const prefix = `--answers: the answer for '${key}'`
  if (!isObject(answer))
    throw new UsageError(
      `${prefix} must be an object such as {"action":"accept","content":{…}}, not ${kindOf(answer)}.`,
    )
  if (answer.action === undefined) return
  if (typeof answer.action !== 'string' || !ACTIONS.includes(answer.action))
    throw new UsageError(
      `${prefix} has action ${JSON.stringify(answer.action)}: it must be "accept", "decline" or "cancel".`,
    )
  if (answer.content === undefined) return
  if (!isObject(answer.content))
    throw new UsageError(
      `${prefix} has content that is ${kindOf(answer.content)}: it must be an object of field values.`,
    )
  for (const [field, value] of Object.entries(answer.content)) {
    const fits =
      ['string', 'number', 'boolean'].includes(typeof value) ||
      (Array.isArray(value) && value.every((item) => typeof item === 'string'))
    if (!fits)
      throw new UsageError(
        `${prefix} has content.${field} that is ${kindOf(value)}: a field value is a string, a number, a boolean or a list of strings.`,
      )
  }
}

/** The server asked again for a key whose given answer it already had: it did not take it. */
function notTaken(key: string, asked: Asked): string {
  const schema = isObject(asked.params.requestedSchema) ? asked.params.requestedSchema : {}
  const properties = isObject(schema.properties) ? Object.entries(schema.properties) : []
  const fields = properties.map(([name, field]) => `${name}: ${fieldType(isObject(field) ? field : {})}`)
  return `--answers: the server asked '${key}' again, so it did not take the answer given; check it against the question${
    fields.length > 0 ? ` (${fields.join(', ')})` : ''
  }.`
}

function kindOf(value: unknown): string {
  if (Array.isArray(value)) return 'an array'
  if (value === null) return 'null'
  if (typeof value === 'object') return 'an object'
  return `${typeof value === 'string' ? 'the string' : `the ${typeof value}`} ${JSON.stringify(value)}`
}
