/**
 * @module validator
 * One shape for every schema a user can hand us: a zod v4 schema or a raw JSON Schema object
 * (2020-12 by default, draft-07 when `$schema` says so). Conversion and compilation happen once, at
 * registration; the request path only calls `validate`. Raw schemas are advertised verbatim. An
 * input's `default`s are applied whichever style declared it, so a handler sees the same
 * arguments from a zod schema and from the JSON Schema it stands for.
 */
import { createRequire } from 'node:module'
import { z } from 'zod'
import type { RequestedSchema } from '../protocol/modern/input-requests.ts'

/** A raw JSON Schema object, 2020-12 unless its `$schema` names draft-07 (or an older draft). */
export type JsonSchema = Record<string, unknown>
/**
 * A schema as an application gives it: a zod v4 schema, or a raw JSON Schema advertised as it is.
 * Either is compiled once, at registration.
 */
export type SchemaInput = z.ZodType | JsonSchema

export type Validation<T = unknown> = { ok: true; value: T } | { ok: false; path: string; message: string }

export interface CompiledSchema<T = unknown> {
  /** The JSON Schema advertised on the wire. */
  readonly jsonSchema: JsonSchema
  validate(value: unknown): Validation<T>
}

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
  const dialect = typeof schema.$schema === 'string' ? schema.$schema : ''
  const draft07 = dialect.includes('draft-07') || dialect.includes('draft-06') || dialect.includes('draft-04')
  const key = `${draft07 ? '07' : '2020'}:${io}`
  let ajv = ajvs.get(key)
  if (ajv === undefined) {
    const options = io === 'input' ? { ...ajvOptions, useDefaults: true } : ajvOptions
    ajv = new (loadAjv(draft07 ? 'ajv' : 'ajv/dist/2020', label))(options)
    ajvs.set(key, ajv)
  }
  return ajv
}

/**
 * ajv, loaded the first time a raw JSON Schema is compiled, so a server of zod schemas never loads
 * it. `require` is made here, not at module load: where there is no file URL (a Worker) the module
 * still loads, and only a raw schema is refused, saying why.
 */
function loadAjv(id: string, label: string): AjvConstructor {
  let mod: { default?: AjvConstructor } & AjvConstructor
  try {
    mod = createRequire(import.meta.url)(id) as typeof mod
  } catch (error) {
    throw new TypeError(
      `${label}: a raw JSON Schema needs ajv, which cannot be loaded here (${(error as Error).message}); use a zod schema.`,
    )
  }
  return mod.default ?? mod
}

export function isZodSchema(value: unknown): value is z.ZodType {
  return typeof value === 'object' && value !== null && '_zod' in value
}

/** A zod 3 schema: it has `_def` and `safeParse` but none of zod 4's `_zod` internals. */
function isZod3Schema(value: unknown): boolean {
  return typeof value === 'object' && value !== null && '_def' in value && !('_zod' in value)
}

/**
 * Compiles a schema; `io: 'input'` makes fields with defaults optional in the advertised schema.
 * `label` names the schema in errors (`Tool 'deploy': input`).
 */
export function compileSchema<T = unknown>(
  schema: SchemaInput,
  io: 'input' | 'output' = 'input',
  label = 'schema',
): CompiledSchema<T> {
  if (isZodSchema(schema)) return compileZod<T>(schema, io, label)
  if (isZod3Schema(schema)) {
    throw new TypeError(
      `${label} is a zod 3 schema; Tessera needs zod 4 (import { z } from 'zod' with zod@4 installed).`,
    )
  }
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) {
    throw new TypeError(`${label} must be a zod schema or a JSON Schema object.`)
  }
  return compileJsonSchema<T>(schema, io, label)
}

function compileZod<T>(schema: z.ZodType, io: 'input' | 'output', label: string): CompiledSchema<T> {
  let jsonSchema: JsonSchema
  try {
    jsonSchema = z.toJSONSchema(schema, { io, target: 'draft-2020-12', unrepresentable: 'any' }) as JsonSchema
  } catch (error) {
    throw new TypeError(`${label} cannot be described as JSON Schema: ${(error as Error).message}`)
  }
  return {
    jsonSchema,
    validate(value) {
      const parsed = schema.safeParse(value)
      if (parsed.success) return { ok: true, value: parsed.data as T }
      const issue = parsed.error.issues[0]
      return { ok: false, path: pointer(issue?.path ?? []), message: issue?.message ?? 'invalid value' }
    },
  }
}

function compileJsonSchema<T>(schema: JsonSchema, io: 'input' | 'output', label: string): CompiledSchema<T> {
  // A copy keeps later mutation of the caller's object out of what we advertise.
  let jsonSchema: JsonSchema
  try {
    jsonSchema = structuredClone(schema)
  } catch {
    throw new TypeError(`${label} is not plain JSON (it holds functions or class instances).`)
  }
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
  // ajv fills defaults into the value it checks: a copy, so what the client sent (which the
  // requestState binding digests) stays as sent. Only a schema that declares a default pays.
  const fills = io === 'input' && declaresDefault(jsonSchema)
  return {
    jsonSchema,
    validate(sent) {
      const value = fills && typeof sent === 'object' && sent !== null ? structuredClone(sent) : sent
      if (check(value)) return { ok: true, value: value as T }
      const err = check.errors?.[0]
      const missing = err?.params?.missingProperty
      const path =
        typeof missing === 'string' ? `${err?.instancePath ?? ''}/${missing}` : (err?.instancePath ?? '')
      return { ok: false, path: path === '' ? '/' : path, message: err?.message ?? 'invalid value' }
    },
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

/** Whether a `default` keyword appears anywhere in `schema` (where ajv could apply it). */
function declaresDefault(schema: unknown): boolean {
  if (typeof schema !== 'object' || schema === null) return false
  if (Array.isArray(schema)) return schema.some(declaresDefault)
  return Object.entries(schema).some(([key, value]) => key === 'default' || declaresDefault(value))
}

function pointer(path: ReadonlyArray<PropertyKey>): string {
  if (path.length === 0) return '/'
  return path.map((p) => `/${String(p).replaceAll('~', '~0').replaceAll('/', '~1')}`).join('')
}

/** The JSON Schema of a zod object used as an elicitation form: flat, primitive fields only. */
export function elicitationSchemaOf(schema: z.ZodObject): RequestedSchema {
  let cached = elicitationSchemas.get(schema)
  if (cached === undefined) {
    const json = z.toJSONSchema(schema, { io: 'input', target: 'draft-2020-12' }) as JsonSchema
    const { $schema: _s, additionalProperties: _a, ...form } = json
    const properties: Record<string, JsonSchema> = {}
    for (const [name, field] of Object.entries((form.properties ?? {}) as Record<string, JsonSchema>)) {
      if (!isFormField(field)) {
        throw new TypeError(
          `elicitForm: field '${name}' must be a string, number, integer, boolean, string enum or array of string enums.`,
        )
      }
      properties[name] = field
    }
    // The keys keep zod's order: `type` and `properties` are overwritten in place.
    cached = { ...form, type: 'object', properties }
    elicitationSchemas.set(schema, cached)
  }
  return cached
}

const elicitationSchemas = new WeakMap<z.ZodObject, RequestedSchema>()

function isFormField(field: JsonSchema): boolean {
  const type = field.type
  if (type === 'string' || type === 'number' || type === 'integer' || type === 'boolean') return true
  if (type === 'array') {
    const items = field.items as JsonSchema | undefined
    return items?.type === 'string' && Array.isArray(items.enum)
  }
  return false
}

/** The empty-object schema of a tool with no parameters. */
export const EMPTY_OBJECT_SCHEMA: JsonSchema = { type: 'object', properties: {} }
