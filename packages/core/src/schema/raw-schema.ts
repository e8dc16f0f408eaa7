/**
 * @module raw-schema
 * How a raw JSON Schema is checked, as one port with an engine per platform, imported as
 * `#raw-schema`: ajv (`raw-schema-ajv.ts`), which compiles each schema to code and is the fastest
 * where code may be generated, and `@cfworker/json-schema` (`raw-schema-cfworker.ts`), which
 * interprets the schema and so runs where generating code is forbidden (Workers). Both refuse an
 * invalid schema at registration, fill an input's `default`s, and word a refused value alike.
 */

/** A raw JSON Schema object, 2020-12 unless its `$schema` names draft-07 (or an older draft). */
export type JsonSchema = Record<string, unknown>

export type Validation<T = unknown> = { ok: true; value: T } | { ok: false; path: string; message: string }

/** Checks one value against a compiled schema: the value with its defaults filled in, or the first fault. */
export type RawSchemaCheck = (value: unknown) => Validation

/** What `#raw-schema` exports. */
export interface RawSchemaEngine {
  /**
   * Compiles `schema` once (the caller's own copy, which the engine never changes), or throws a
   * TypeError that starts with `label` and says what is wrong with it. `io: 'input'` fills the
   * `default`s a schema declares into a copy of the value; an output is checked as it is.
   */
  compileRawSchema(schema: JsonSchema, io: 'input' | 'output', label: string): RawSchemaCheck
}

/** Whether a `default` keyword appears anywhere in `schema` (where it could be applied). */
export function declaresDefault(schema: unknown): boolean {
  if (typeof schema !== 'object' || schema === null) return false
  if (Array.isArray(schema)) return schema.some(declaresDefault)
  return Object.entries(schema).some(([key, value]) => key === 'default' || declaresDefault(value))
}

/** Whether `$schema` names draft-07 or an older draft; anything else is 2020-12. */
export function isDraft07(schema: JsonSchema): boolean {
  const dialect = typeof schema.$schema === 'string' ? schema.$schema : ''
  return dialect.includes('draft-07') || dialect.includes('draft-06') || dialect.includes('draft-04')
}
