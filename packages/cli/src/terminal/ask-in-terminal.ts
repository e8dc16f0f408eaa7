/**
 * @module ask-in-terminal
 * Answers the server's questions at the terminal. A form elicitation asks first whether to
 * answer at all (accept, decline or cancel), then field by field: choices for enums, yes/no for
 * booleans, checked text for numbers and strings, defaults shown. A URL elicitation shows the
 * URL. Roots are the working directory; a sampling request is answered by the person, as the
 * model. Prompts go to stderr, so stdout carries the result only.
 */
import { basename } from 'node:path'
import { pathToFileURL } from 'node:url'
import * as clack from '@clack/prompts'
import { isObject, type JsonObject } from '../client/json-rpc.ts'
import type { Asked } from '../client/session.ts'

const io = { output: process.stderr }

export class AnswerAborted extends Error {
  override readonly name = 'AnswerAborted'
}

/** Answers given up front (`--answers`: by question key) first; what they do not answer is asked. */
export function terminalAsker(given: (asked: Asked) => JsonObject | undefined = () => undefined) {
  return async (asked: Asked): Promise<JsonObject> => {
    const answer = given(asked)
    if (answer !== undefined) return answer
    if (asked.method === 'roots/list')
      return { roots: [{ uri: pathToFileURL(process.cwd()).href, name: basename(process.cwd()) }] }
    if (!process.stdin.isTTY) {
      throw new AnswerAborted(
        `The server asks '${asked.key ?? asked.method}' and stdin is not a terminal: answer it with --answers.`,
      )
    }
    if (asked.method === 'elicitation/create') return elicit(asked)
    if (asked.method === 'sampling/createMessage') return sample(asked.params)
    throw new AnswerAborted(`This client cannot answer ${asked.method}.`)
  }
}

async function elicit(asked: Asked): Promise<JsonObject> {
  const { params } = asked
  clack.log.step(String(params.message ?? 'The server asks for input.'), io)
  if (params.mode === 'url') clack.log.info(`Open ${String(params.url)}`, io)
  const action = await settled(
    clack.select({
      ...io,
      message: 'Answer?',
      options: [
        { value: 'accept', label: 'Accept' },
        { value: 'decline', label: 'Decline' },
        { value: 'cancel', label: 'Cancel' },
      ],
    }),
  )
  if (action === undefined) return { action: 'cancel' }
  if (action !== 'accept' || params.mode === 'url') return { action }
  const schema = isObject(params.requestedSchema) ? params.requestedSchema : {}
  const properties = isObject(schema.properties) ? schema.properties : {}
  const required = new Set(Array.isArray(schema.required) ? schema.required.map(String) : [])
  const content: JsonObject = {}
  for (const [name, field] of Object.entries(properties)) {
    const value = await askField(name, isObject(field) ? field : {}, required.has(name))
    if (value === CANCELLED) return { action: 'cancel' }
    if (value !== undefined) content[name] = value
  }
  return { action: 'accept', content }
}

const CANCELLED = Symbol('cancelled')

async function askField(name: string, field: JsonObject, required: boolean): Promise<unknown> {
  const label = `${String(field.title ?? name)}${required ? '' : ' (optional)'}${
    typeof field.description === 'string' ? ` — ${field.description}` : ''
  }`
  const choices = choicesOf(field)
  if (choices !== undefined) {
    const options = choices.map((c) => ({ value: c.value, label: c.label }))
    if (!required) options.push({ value: SKIP, label: '(leave empty)' })
    const picked = await settled(
      clack.select({
        ...io,
        message: label,
        options,
        initialValue: (field.default as string | undefined) ?? undefined,
      }),
    )
    return picked === undefined ? CANCELLED : picked === SKIP ? undefined : picked
  }
  const many = multiChoicesOf(field)
  if (many !== undefined) {
    const picked = await settled(
      clack.multiselect({
        ...io,
        message: label,
        options: many.map((c) => ({ value: c.value, label: c.label })),
        required,
        initialValues: Array.isArray(field.default) ? field.default.map(String) : undefined,
      }),
    )
    return picked === undefined ? CANCELLED : picked
  }
  if (field.type === 'boolean') {
    const yes = await settled(
      clack.confirm({
        ...io,
        message: label,
        initialValue: typeof field.default === 'boolean' ? field.default : false,
      }),
    )
    return yes === undefined ? CANCELLED : yes
  }
  const numeric = field.type === 'number' || field.type === 'integer'
  const text = await settled(
    clack.text({
      ...io,
      message: label,
      defaultValue: field.default === undefined ? undefined : String(field.default),
      placeholder: field.default === undefined ? undefined : `${String(field.default)} (default)`,
      validate: (value) => problemWith(value ?? '', field, required, numeric),
    }),
  )
  if (text === undefined) return CANCELLED
  if (text === '') return field.default ?? undefined
  return numeric ? Number(text) : text
}

const SKIP = '\u0000skip'

function problemWith(
  value: string,
  field: JsonObject,
  required: boolean,
  numeric: boolean,
): string | undefined {
  if (value === '') return required && field.default === undefined ? 'Required.' : undefined
  if (numeric) {
    const n = Number(value)
    if (!Number.isFinite(n)) return 'A number, please.'
    if (field.type === 'integer' && !Number.isInteger(n)) return 'A whole number, please.'
    if (typeof field.minimum === 'number' && n < field.minimum) return `At least ${field.minimum}.`
    if (typeof field.maximum === 'number' && n > field.maximum) return `At most ${field.maximum}.`
    return undefined
  }
  if (typeof field.minLength === 'number' && value.length < field.minLength)
    return `At least ${field.minLength} characters.`
  if (typeof field.maxLength === 'number' && value.length > field.maxLength)
    return `At most ${field.maxLength} characters.`
  return undefined
}

interface Choice {
  value: string
  label: string
}

/** A single choice: `enum` (with `enumNames`), or `oneOf` of `{ const, title }`. */
function choicesOf(field: JsonObject): Choice[] | undefined {
  if (Array.isArray(field.enum)) {
    const names = Array.isArray(field.enumNames) ? field.enumNames : []
    return field.enum.map((value, i) => ({ value: String(value), label: String(names[i] ?? value) }))
  }
  if (Array.isArray(field.oneOf)) return titled(field.oneOf)
  return undefined
}

/** Several choices: an array whose items are an `enum` or an `anyOf` of `{ const, title }`. */
function multiChoicesOf(field: JsonObject): Choice[] | undefined {
  if (field.type !== 'array' || !isObject(field.items)) return undefined
  if (Array.isArray(field.items.enum))
    return field.items.enum.map((v) => ({ value: String(v), label: String(v) }))
  if (Array.isArray(field.items.anyOf)) return titled(field.items.anyOf)
  return undefined
}

function titled(options: unknown[]): Choice[] {
  return options.filter(isObject).map((o) => ({ value: String(o.const), label: String(o.title ?? o.const) }))
}

async function sample(params: JsonObject): Promise<JsonObject> {
  const messages = Array.isArray(params.messages) ? params.messages.filter(isObject) : []
  for (const message of messages) {
    const content = isObject(message.content) ? message.content : {}
    clack.log.message(
      `${String(message.role)}: ${content.type === 'text' ? String(content.text) : `[${String(content.type)}]`}`,
      io,
    )
  }
  const reply = await settled(
    clack.text({ ...io, message: 'The server asks the model. Reply as the model:' }),
  )
  if (reply === undefined) throw new AnswerAborted('The sampling request was cancelled.')
  return {
    role: 'assistant',
    content: { type: 'text', text: reply },
    model: 'human-at-the-terminal',
    stopReason: 'endTurn',
  }
}

/** A prompt's answer, or undefined when the person pressed Ctrl-C or Escape. */
async function settled<T>(prompt: Promise<T | symbol>): Promise<T | undefined> {
  const value = await prompt
  return clack.isCancel(value) ? undefined : (value as T)
}
