/**
 * @module validator
 * One shape for every schema a user can hand us: a zod v4 schema or a raw JSON Schema object
 * (2020-12 by default, draft-07 when `$schema` says so). Conversion and compilation happen once, at
 * registration; the request path only calls `validate`. Raw schemas are advertised verbatim.
 */
import { createRequire } from 'node:module'
import { z } from 'zod'

export type JsonSchema = Record<string, unknown>
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
interface AjvInstance {
  compile(schema: JsonSchema): AjvValidateFn
}
type AjvConstructor = new (options: Record<string, unknown>) => AjvInstance

const require = createRequire(import.meta.url)
const ajvOptions = { strict: false, allErrors: false, validateFormats: false, validateSchema: true }
let ajv2020: AjvInstance | undefined
let ajv07: AjvInstance | undefined

function ajvFor(schema: JsonSchema): AjvInstance {
  const dialect = typeof schema.$schema === 'string' ? schema.$schema : ''
  if (dialect.includes('draft-07') || dialect.includes('draft-06') || dialect.includes('draft-04')) {
    ajv07 ??= new (loadAjv('ajv'))(ajvOptions)
    return ajv07
  }
  ajv2020 ??= new (loadAjv('ajv/dist/2020'))(ajvOptions)
  return ajv2020
}

function loadAjv(id: string): AjvConstructor {
  const mod = require(id) as { default?: AjvConstructor } & AjvConstructor
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
  return compileJsonSchema<T>(schema, label)
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

function compileJsonSchema<T>(schema: JsonSchema, label: string): CompiledSchema<T> {
  // A copy keeps later mutation of the caller's object out of what we advertise.
  let jsonSchema: JsonSchema
  try {
    jsonSchema = structuredClone(schema)
  } catch {
    throw new TypeError(`${label} is not plain JSON (it holds functions or class instances).`)
  }
  let check: AjvValidateFn
  try {
    check = ajvFor(jsonSchema).compile(jsonSchema)
  } catch (error) {
    throw new TypeError(`${label} is not a valid JSON Schema: ${(error as Error).message}`)
  }
  return {
    jsonSchema,
    validate(value) {
      if (check(value)) return { ok: true, value: value as T }
      const err = check.errors?.[0]
      const missing = err?.params?.missingProperty
      const path =
        typeof missing === 'string' ? `${err?.instancePath ?? ''}/${missing}` : (err?.instancePath ?? '')
      return { ok: false, path: path === '' ? '/' : path, message: err?.message ?? 'invalid value' }
    },
  }
}

function pointer(path: ReadonlyArray<PropertyKey>): string {
  if (path.length === 0) return '/'
  return path.map((p) => `/${String(p).replaceAll('~', '~0').replaceAll('/', '~1')}`).join('')
}

/** The JSON Schema of a zod object used as an elicitation form: flat, primitive fields only. */
export function elicitationSchemaOf(schema: z.ZodObject): JsonSchema {
  let cached = elicitationSchemas.get(schema)
  if (cached === undefined) {
    const json = z.toJSONSchema(schema, { io: 'input', target: 'draft-2020-12' }) as JsonSchema
    const { $schema: _s, additionalProperties: _a, ...form } = json
    for (const [name, field] of Object.entries((form.properties ?? {}) as Record<string, JsonSchema>)) {
      if (!isFormField(field)) {
        throw new TypeError(
          `elicitForm: field '${name}' must be a string, number, integer, boolean, string enum or array of string enums.`,
        )
      }
    }
    cached = form
    elicitationSchemas.set(schema, cached)
  }
  return cached
}

const elicitationSchemas = new WeakMap<z.ZodObject, JsonSchema>()

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
