/**
 * @module raw-schema-ajv
 * `#raw-schema` where code may be generated (Node, Bun, Deno): ajv compiles each schema to a
 * function once, at registration, which makes checking a value the cheapest it can be. ajv is
 * loaded the first time a raw JSON Schema is compiled, so a server of zod schemas never loads it.
 */
import { ajvPackage } from '#on-demand'
import { declaresDefault, isDraft07, type JsonSchema, type RawSchemaCheck } from './raw-schema.ts'

interface AjvValidateFn {
  (data: unknown): boolean
  errors?: Array<{ instancePath: string; message?: string; params?: Record<string, unknown> }> | null
}
interface AjvError {
  instancePath: string
  keyword: string
  message?: string
  params?: Record<string, unknown>
}
interface AjvInstance {
  compile(schema: JsonSchema): AjvValidateFn
  validateSchema(schema: JsonSchema): boolean
  errors?: AjvError[] | null
}
type AjvConstructor = new (options: Record<string, unknown>) => AjvInstance

// ajv's own console logging is off: every fault it finds reaches the caller as an error of ours.
const ajvOptions = {
  strict: false,
  allErrors: false,
  validateFormats: false,
  validateSchema: true,
  logger: false,
}
/** One ajv per dialect and per use: inputs get their `default`s filled in, as zod does; outputs never. */
const ajvs = new Map<string, AjvInstance>()

function ajvFor(schema: JsonSchema, io: 'input' | 'output', label: string): AjvInstance {
  const draft07 = isDraft07(schema)
  const key = `${draft07 ? '07' : '2020'}:${io}`
  let ajv = ajvs.get(key)
  if (ajv === undefined) {
    const options = io === 'input' ? { ...ajvOptions, useDefaults: true } : ajvOptions
    ajv = new (loadAjv(draft07, label))(options)
    ajvs.set(key, ajv)
  }
  return ajv
}

/** ajv, loaded the first time a raw JSON Schema is compiled. */
function loadAjv(draft07: boolean, label: string): AjvConstructor {
  let mod: { default?: AjvConstructor } & AjvConstructor
  try {
    mod = ajvPackage(draft07) as typeof mod
  } catch (error) {
    throw new TypeError(
      `${label}: a raw JSON Schema needs ajv, which cannot be loaded here (${(error as Error).message}); use a zod schema.`,
    )
  }
  return mod.default ?? mod
}

export function compileRawSchema(
  jsonSchema: JsonSchema,
  io: 'input' | 'output',
  label: string,
): RawSchemaCheck {
  const ajv = ajvFor(jsonSchema, io, label)
  let check: AjvValidateFn | undefined
  try {
    if (ajv.validateSchema(jsonSchema)) check = ajv.compile(jsonSchema)
  } catch (error) {
    // ajv compiles schemas (its meta-schema too) to functions; a platform that forbids code
    // generation refuses that, which says nothing about the schema.
    if (error instanceof EvalError) {
      throw new TypeError(
        `${label}: this platform forbids compiling code from strings, which ajv needs for a raw JSON Schema; use a zod schema.`,
      )
    }
    throw new TypeError(`${label} is not a valid JSON Schema: ${(error as Error).message}.`)
  }
  if (check === undefined) {
    throw new TypeError(`${label} is not a valid JSON Schema: ${schemaFault(jsonSchema, ajv.errors?.[0])}.`)
  }
  const compiled = check
  // ajv fills defaults into the value it checks: a copy, so what the client sent (which the
  // requestState binding digests) stays as sent. Only a schema that declares a default pays.
  const fills = io === 'input' && declaresDefault(jsonSchema)
  return (sent) => {
    const value = fills && typeof sent === 'object' && sent !== null ? structuredClone(sent) : sent
    if (compiled(value)) return { ok: true, value }
    const err = compiled.errors?.[0]
    const missing = err?.params?.missingProperty
    const path =
      typeof missing === 'string' ? `${err?.instancePath ?? ''}/${missing}` : (err?.instancePath ?? '')
    return { ok: false, path: path === '' ? '/' : path, message: err?.message ?? 'invalid value' }
  }
}

/**
 * What is wrong with a schema, in words: the keyword, where it stands, what it must be and what
 * it is (`'type' at /properties/replicas must be one of array, boolean, … (it is "nmber")`).
 */
function schemaFault(schema: JsonSchema, error: AjvError | undefined): string {
  if (error === undefined) return 'it does not match the JSON Schema meta-schema'
  const segments = error.instancePath.split('/').slice(1)
  const keyword = segments.at(-1)?.replaceAll('~1', '/').replaceAll('~0', '~')
  const where = segments.length > 1 ? `/${segments.slice(0, -1).join('/')}` : 'the top level'
  const allowed = error.params?.allowedValues
  const must = Array.isArray(allowed)
    ? `must be one of ${allowed.join(', ')}`
    : (error.message ?? 'is invalid')
  const found = valueAt(schema, segments)
  const shown = found === undefined ? '' : ` (it is ${JSON.stringify(found)?.slice(0, 64)})`
  return keyword === undefined ? `the schema ${must}` : `'${keyword}' at ${where} ${must}${shown}`
}

function valueAt(schema: unknown, segments: readonly string[]): unknown {
  let at = schema
  for (const raw of segments) {
    if (typeof at !== 'object' || at === null) return undefined
    at = (at as Record<string, unknown>)[raw.replaceAll('~1', '/').replaceAll('~0', '~')]
  }
  return at
}
