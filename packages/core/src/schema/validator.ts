/**
 * @module validator
 * One shape for every schema a user can hand us: a zod v4 schema or a raw JSON Schema object
 * (2020-12 by default, draft-07 when `$schema` says so). Conversion and compilation happen once, at
 * registration; the request path only calls `validate`. Raw schemas are advertised verbatim and
 * checked by the platform's engine (`#raw-schema`: ajv where code may be generated, a validator
 * that generates none on Workers), with the same verdicts and the same messages. An
 * input's `default`s are applied whichever style declared it, so a handler sees the same
 * arguments from a zod schema and from the JSON Schema it stands for.
 */

import { z } from 'zod'
import { compileRawSchema } from '#raw-schema'
import type { RequestedSchema } from '../protocol/modern/input-requests.ts'
import type { JsonSchema, Validation } from './raw-schema.ts'
import { schemaFingerprint } from './schema-fingerprint.ts'

export type { JsonSchema, Validation } from './raw-schema.ts'
/**
 * A schema as an application gives it: a zod v4 schema, or a raw JSON Schema advertised as it is.
 * Either is compiled once, at registration.
 */
export type SchemaInput = z.ZodType | JsonSchema

export interface CompiledSchema<T = unknown> {
  /** The JSON Schema advertised on the wire. */
  readonly jsonSchema: JsonSchema
  validate(value: unknown): Validation<T>
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
  const check = compileRawSchema(jsonSchema, io, label)
  return { jsonSchema, validate: (value) => check(value) as Validation<T> }
}

function pointer(path: ReadonlyArray<PropertyKey>): string {
  if (path.length === 0) return '/'
  return path.map((p) => `/${String(p).replaceAll('~', '~0').replaceAll('/', '~1')}`).join('')
}

/** A zod object used as an elicitation form: its JSON Schema, and the schema that reads its answers. */
export interface ElicitationForm {
  /** Deeply frozen: every form of the shape shares it. */
  readonly requestedSchema: RequestedSchema
  /**
   * The schema an answer is parsed with: the first one of this shape the process met. Two schemas
   * of one fingerprint read every answer alike (a message maker, which it leaves out, only words a
   * refusal, and a refused answer is asked again), and the first has compiled its parser already,
   * where a schema built anew would compile its own on its first parse.
   */
  readonly schema: z.ZodObject
}

/**
 * The form of a zod object: flat, primitive fields only. It is converted once per schema, and
 * once per shape: a schema built anew on every call (inside a handler) finds the form of an
 * earlier one built alike, by its fingerprint.
 */
export function elicitationFormOf(schema: z.ZodObject): ElicitationForm {
  let form = elicitationForms.get(schema)
  if (form !== undefined) return form
  const fingerprint = schemaFingerprint(schema)
  form = fingerprint === undefined ? undefined : formsByShape.get(fingerprint)
  if (form === undefined) {
    form = { requestedSchema: formSchemaOf(schema), schema }
    if (fingerprint !== undefined) rememberShape(fingerprint, form)
  }
  elicitationForms.set(schema, form)
  return form
}

const elicitationForms = new WeakMap<z.ZodObject, ElicitationForm>()
/** Forms by fingerprint; the oldest goes first past the bound (a default computed per call makes a shape per value). */
const formsByShape = new Map<string, ElicitationForm>()
const MAX_SHAPES = 512

function rememberShape(fingerprint: string, form: ElicitationForm): void {
  if (formsByShape.size >= MAX_SHAPES) {
    const oldest = formsByShape.keys().next().value
    if (oldest !== undefined) formsByShape.delete(oldest)
  }
  formsByShape.set(fingerprint, form)
}

function formSchemaOf(schema: z.ZodObject): RequestedSchema {
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
  // The keys keep zod's order: `type` and `properties` are overwritten in place. Frozen, since every
  // form of this shape shares it (and its canonical text is kept for digests).
  return deepFreeze({ ...form, type: 'object', properties }) as RequestedSchema
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    for (const member of Object.values(value)) deepFreeze(member)
    Object.freeze(value)
  }
  return value
}

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
