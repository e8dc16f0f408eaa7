/**
 * @module tool-arguments
 * A tool's arguments from the command line: `--json '{…}'` first, then each `--arg key=value`,
 * its value read as the type the tool's input schema gives that key (numbers, booleans, and
 * JSON for objects and arrays; text otherwise).
 */
import { isObject, type JsonObject } from '../client/json-rpc.ts'
import { UsageError } from './failure.ts'

export function toolArguments(
  schema: JsonObject | undefined,
  json: string | undefined,
  pairs: string[],
): JsonObject {
  let args: JsonObject = {}
  if (json !== undefined) {
    let parsed: unknown
    try {
      parsed = JSON.parse(json)
    } catch (error) {
      throw new UsageError(
        `--json is not JSON (${(error as Error).message}): give the arguments as one object, e.g. --json '{"text":"hi"}'.`,
      )
    }
    if (!isObject(parsed))
      throw new UsageError(`--json must be one object of the arguments by name, e.g. --json '{"text":"hi"}'.`)
    args = parsed
  }
  const properties = isObject(schema?.properties) ? schema.properties : {}
  for (const pair of pairs) {
    const equals = pair.indexOf('=')
    if (equals <= 0) throw new UsageError(`--arg takes key=value (got '${pair}').`)
    const key = pair.slice(0, equals)
    const field = properties[key]
    args[key] = coerce(key, pair.slice(equals + 1), isObject(field) ? field : undefined)
  }
  return args
}

function coerce(key: string, text: string, field: JsonObject | undefined): unknown {
  const type = field?.type
  if (type === 'string' || (field === undefined && !looksLikeJson(text))) return text
  if (type === 'integer' || type === 'number') {
    const n = Number(text)
    if (text.trim() === '' || !Number.isFinite(n) || (type === 'integer' && !Number.isInteger(n)))
      throw new UsageError(
        `--arg ${key}: '${text}' is not ${type === 'integer' ? 'an integer' : 'a number'}.`,
      )
    return n
  }
  if (type === 'boolean') {
    if (text === 'true' || text === 'false') return text === 'true'
    throw new UsageError(`--arg ${key}: '${text}' is not true or false.`)
  }
  try {
    return JSON.parse(text)
  } catch {
    if (type === 'object' || type === 'array') throw new UsageError(`--arg ${key}: '${text}' is not JSON.`)
    return text
  }
}

const looksLikeJson = (text: string): boolean => /^(?:[{[]|-?\d|true$|false$|null$)/.test(text)
