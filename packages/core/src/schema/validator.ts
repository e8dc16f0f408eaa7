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

/** Compiles a schema; `io: 'input'` makes fields with defaults optional in the advertised schema. */
export function compileSchema<T = unknown>(
  schema: SchemaInput,
  io: 'input' | 'output' = 'input',
): CompiledSchema<T> {
  if (isZodSchema(schema)) return compileZod<T>(schema, io)
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) {
    throw new TypeError('A schema must be a zod schema or a JSON Schema object.')
  }
  return compileJsonSchema<T>(schema)
}

function compileZod<T>(schema: z.ZodType, io: 'input' | 'output'): CompiledSchema<T> {
  const jsonSchema = z.toJSONSchema(schema, {
    io,
    target: 'draft-2020-12',
    unrepresentable: 'any',
  }) as JsonSchema
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

function compileJsonSchema<T>(schema: JsonSchema): CompiledSchema<T> {
  // A structured clone keeps later mutation of the caller's object out of what we advertise.
  const jsonSchema = structuredClone(schema)
  let check: AjvValidateFn
  try {
    check = ajvFor(jsonSchema).compile(jsonSchema)
  } catch (error) {
    throw new TypeError(`Invalid JSON Schema: ${(error as Error).message}`)
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

/** The empty-object schema of a tool with no parameters. */
export const EMPTY_OBJECT_SCHEMA: JsonSchema = { type: 'object', properties: {} }
