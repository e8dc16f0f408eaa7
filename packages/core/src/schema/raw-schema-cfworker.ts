/**
 * @module raw-schema-cfworker
 * `#raw-schema` where generating code is forbidden (Workers): `@cfworker/json-schema` interprets
 * each schema, with no `eval` or `new Function`. It is maintained for exactly this platform, covers
 * draft-04 to 2020-12, and is what the official SDK validates with on Workers.
 *
 * What ajv does on Node is done here by hand, so that a schema gets the same verdicts on every
 * platform: the schema is checked against its dialect's meta-schema at registration (a 2020-12
 * schema against 2019-09's, whose `$recursiveRef` the interpreter follows, where 2020-12's
 * `$dynamicRef` it does not); `format` is an annotation, never asserted (as ajv is configured);
 * an input's `default`s are filled into a copy first; and the first fault is worded in ajv's words.
 */
import { dereference, type Schema, Validator } from '@cfworker/json-schema'
import applicator from 'ajv/dist/refs/json-schema-2019-09/meta/applicator.json' with { type: 'json' }
import content from 'ajv/dist/refs/json-schema-2019-09/meta/content.json' with { type: 'json' }
import core from 'ajv/dist/refs/json-schema-2019-09/meta/core.json' with { type: 'json' }
import format from 'ajv/dist/refs/json-schema-2019-09/meta/format.json' with { type: 'json' }
import metaData from 'ajv/dist/refs/json-schema-2019-09/meta/meta-data.json' with { type: 'json' }
import validation from 'ajv/dist/refs/json-schema-2019-09/meta/validation.json' with { type: 'json' }
import meta2019 from 'ajv/dist/refs/json-schema-2019-09/schema.json' with { type: 'json' }
import metaDraft07 from 'ajv/dist/refs/json-schema-draft-07.json' with { type: 'json' }
import {
  declaresDefault,
  isDraft07,
  type JsonSchema,
  type RawSchemaCheck,
  type Validation,
} from './raw-schema.ts'

interface OutputUnit {
  keyword: string
  keywordLocation: string
  instanceLocation: string
  error: string
}

// The meta-schemas are JSON documents; the interpreter's type for a schema is narrower than what
// TypeScript infers from them.
const VOCABULARIES_2019: readonly unknown[] = [applicator, content, core, format, metaData, validation]
let metaValidators: { draft07: Validator; modern: Validator } | undefined

function metaValidatorFor(draft07: boolean): Validator {
  metaValidators ??= {
    draft07: new Validator(structuredClone(metaDraft07) as Schema, '7', true),
    modern: (() => {
      const validator = new Validator(structuredClone(meta2019) as Schema, '2019-09', true)
      for (const vocabulary of VOCABULARIES_2019) validator.addSchema(structuredClone(vocabulary) as Schema)
      return validator
    })(),
  }
  return draft07 ? metaValidators.draft07 : metaValidators.modern
}

export function compileRawSchema(
  jsonSchema: JsonSchema,
  io: 'input' | 'output',
  label: string,
): RawSchemaCheck {
  const draft07 = isDraft07(jsonSchema)
  const checked = metaValidatorFor(draft07).validate(jsonSchema)
  if (!checked.valid) {
    throw new TypeError(`${label} is not a valid JSON Schema: ${metaFault(jsonSchema, checked.errors)}.`)
  }
  // The interpreter writes its reference table into the schema it is given: its own copy.
  const own = withoutFormat(structuredClone(jsonSchema)) as JsonSchema
  let validator: Validator
  try {
    validator = new Validator(own, draft07 ? '7' : '2020-12', true)
  } catch (error) {
    throw new TypeError(`${label} is not a valid JSON Schema: ${(error as Error).message}.`)
  }
  const unresolved = unresolvedReference(jsonSchema)
  if (unresolved !== undefined) {
    throw new TypeError(`${label} is not a valid JSON Schema: can't resolve reference ${unresolved}.`)
  }
  const fills = io === 'input' && declaresDefault(jsonSchema)
  return (sent) => {
    const value = fills && typeof sent === 'object' && sent !== null ? structuredClone(sent) : sent
    if (fills) fillDefaults(jsonSchema, value, jsonSchema)
    const result = validator.validate(value)
    if (result.valid) return { ok: true, value }
    return firstFault(result.errors, jsonSchema)
  }
}

// Keywords whose value is one subschema, an array of them, or a map of them.
const ONE_SCHEMA = new Set([
  'additionalProperties',
  'additionalItems',
  'unevaluatedProperties',
  'unevaluatedItems',
  'contains',
  'propertyNames',
  'not',
  'if',
  'then',
  'else',
  'items',
  'contentSchema',
])
const SCHEMA_ARRAY = new Set(['allOf', 'anyOf', 'oneOf', 'prefixItems', 'items'])
const SCHEMA_MAP = new Set([
  'properties',
  'patternProperties',
  '$defs',
  'definitions',
  'dependentSchemas',
  'dependencies',
])

/** The schema with every `format` keyword removed: an annotation only, as ajv is configured on Node. */
function withoutFormat(schema: unknown): unknown {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) return schema
  const out: Record<string, unknown> = {}
  for (const [keyword, value] of Object.entries(schema)) {
    if (keyword === 'format') continue
    if (SCHEMA_ARRAY.has(keyword) && Array.isArray(value)) out[keyword] = value.map(withoutFormat)
    else if (ONE_SCHEMA.has(keyword)) out[keyword] = withoutFormat(value)
    else if (
      SCHEMA_MAP.has(keyword) &&
      typeof value === 'object' &&
      value !== null &&
      !Array.isArray(value)
    ) {
      out[keyword] = Object.fromEntries(
        Object.entries(value).map(([name, sub]) => [name, withoutFormat(sub)]),
      )
    } else out[keyword] = value
  }
  return out
}

/** The first `$ref` that resolves to no schema, if any (dereferencing marks each with its absolute URI). */
function unresolvedReference(schema: JsonSchema): string | undefined {
  const copy = structuredClone(schema)
  const lookup = dereference(copy)
  const seen = new Set<unknown>()
  let missing: string | undefined
  const visit = (node: unknown) => {
    if (missing !== undefined || typeof node !== 'object' || node === null || seen.has(node)) return
    seen.add(node)
    const { $ref, __absolute_ref__: absolute } = node as { $ref?: unknown; __absolute_ref__?: unknown }
    if (typeof $ref === 'string' && (typeof absolute !== 'string' || lookup[absolute] === undefined))
      missing = $ref
    for (const value of Object.values(node)) visit(value)
  }
  visit(copy)
  return missing
}

/** The subschema a local JSON pointer names, or undefined. */
function schemaAtPointer(root: unknown, pointer: string): unknown {
  if (pointer === '') return root
  let at = root
  for (const raw of pointer.split('/').slice(1)) {
    const segment = decodeURIComponent(raw).replaceAll('~1', '/').replaceAll('~0', '~')
    if (typeof at !== 'object' || at === null || !Object.hasOwn(at, segment)) return undefined
    at = (at as Record<string, unknown>)[segment]
  }
  return at
}

/**
 * Fills missing properties that declare a `default` (a copy of it), at any depth, where ajv
 * fills them: under `properties`, array-form `items` and `prefixItems`, `allOf` and local `$ref`s.
 */
function fillDefaults(schema: unknown, value: unknown, root: unknown, depth = 0): void {
  if (
    typeof schema !== 'object' ||
    schema === null ||
    typeof value !== 'object' ||
    value === null ||
    depth > 64
  )
    return
  const node = schema as Record<string, unknown>
  if (typeof node.$ref === 'string' && node.$ref.startsWith('#')) {
    fillDefaults(schemaAtPointer(root, node.$ref.slice(1)), value, root, depth + 1)
  }
  if (Array.isArray(node.allOf)) for (const sub of node.allOf) fillDefaults(sub, value, root, depth + 1)
  if (Array.isArray(value)) {
    const tuple = Array.isArray(node.prefixItems)
      ? node.prefixItems
      : Array.isArray(node.items)
        ? node.items
        : []
    tuple.forEach((sub, index) => {
      if (index >= value.length) return
      fillDefaults(sub, value[index], root, depth + 1)
    })
    return
  }
  const properties = node.properties
  if (typeof properties !== 'object' || properties === null) return
  const target = value as Record<string, unknown>
  for (const [name, sub] of Object.entries(properties)) {
    if (typeof sub !== 'object' || sub === null) continue
    if (!Object.hasOwn(target, name) && 'default' in sub) target[name] = structuredClone(sub.default)
    if (Object.hasOwn(target, name)) fillDefaults(sub, target[name], root, depth + 1)
  }
}

// Keywords that only report that something beneath them failed: the fault is the unit after them.
const WRAPPERS = new Set([
  'properties',
  'patternProperties',
  'items',
  'prefixItems',
  'additionalItems',
  'unevaluatedItems',
  'unevaluatedProperties',
  'allOf',
  '$ref',
  '$recursiveRef',
  'dependentSchemas',
  'dependencies',
])

function firstFault(units: readonly OutputUnit[], root: JsonSchema): Validation {
  let index = 0
  while (index < units.length - 1 && isWrapper(units[index]!, units[index + 1]!)) index++
  const unit = units[index]
  if (unit === undefined) return { ok: false, path: '/', message: 'invalid value' }
  const path = decodeURIComponent(unit.instanceLocation.slice(1))
  const required = /required property "(.*)"\.$/.exec(unit.error)
  if (unit.keyword === 'required' && required !== null) {
    return {
      ok: false,
      path: `${path}/${escapeSegment(required[1]!)}`,
      message: `must have required property '${required[1]}'`,
    }
  }
  return {
    ok: false,
    path: path === '' ? '/' : path,
    message: messageFor(unit, keywordValue(root, unit.keywordLocation)),
  }
}

function isWrapper(unit: OutputUnit, next: OutputUnit): boolean {
  if (unit.keyword === 'additionalProperties') return next.keyword !== 'false'
  return WRAPPERS.has(unit.keyword)
}

function escapeSegment(name: string): string {
  return name.replaceAll('~', '~0').replaceAll('/', '~1')
}

/** The value of the keyword a unit names, following `$ref`s along its (dynamic) location. */
function keywordValue(root: JsonSchema, location: string): unknown {
  let at: unknown = root
  for (const raw of location.split('/').slice(1)) {
    if (typeof at !== 'object' || at === null) return undefined
    const node = at as Record<string, unknown>
    if (raw === '$ref' && typeof node.$ref === 'string') {
      at = node.$ref.startsWith('#') ? schemaAtPointer(root, node.$ref.slice(1)) : undefined
      continue
    }
    at = node[decodeURIComponent(raw).replaceAll('~1', '/').replaceAll('~0', '~')]
  }
  return at
}

/** The unit's fault, worded as ajv words it. */
function messageFor(unit: OutputUnit, value: unknown): string {
  switch (unit.keyword) {
    case 'type':
      return `must be ${Array.isArray(value) ? value.join(',') : String(value)}`
    case 'enum':
      return 'must be equal to one of the allowed values'
    case 'const':
      return 'must be equal to constant'
    case 'minimum':
      return `must be >= ${value}`
    case 'maximum':
      return `must be <= ${value}`
    case 'exclusiveMinimum':
      return `must be > ${value}`
    case 'exclusiveMaximum':
      return `must be < ${value}`
    case 'multipleOf':
      return `must be multiple of ${value}`
    case 'minLength':
      return `must NOT have fewer than ${value} characters`
    case 'maxLength':
      return `must NOT have more than ${value} characters`
    case 'pattern':
      return `must match pattern "${value}"`
    case 'minItems':
      return `must NOT have fewer than ${value} items`
    case 'maxItems':
      return `must NOT have more than ${value} items`
    case 'minProperties':
      return `must NOT have fewer than ${value} properties`
    case 'maxProperties':
      return `must NOT have more than ${value} properties`
    case 'additionalProperties':
      return 'must NOT have additional properties'
    case 'anyOf':
      return 'must match a schema in anyOf'
    case 'oneOf':
      return 'must match exactly one schema in oneOf'
    case 'not':
      return 'must NOT be valid'
    case 'false':
      return 'boolean schema is false'
    default:
      return unit.error
  }
}

/** What is wrong with a schema, from its meta-schema check: where, and what stands there. */
function metaFault(schema: JsonSchema, units: readonly OutputUnit[]): string {
  const deepest = units.reduce(
    (a, b) => (b.instanceLocation.length > a.instanceLocation.length ? b : a),
    units[0]!,
  )
  const segments = decodeURIComponent(deepest?.instanceLocation.slice(1) ?? '')
    .split('/')
    .slice(1)
  const keyword = segments.at(-1)?.replaceAll('~1', '/').replaceAll('~0', '~')
  const where = segments.length > 1 ? `/${segments.slice(0, -1).join('/')}` : 'the top level'
  const found = keywordValue(schema, `#/${segments.join('/')}`)
  const shown = found === undefined ? '' : ` (it is ${JSON.stringify(found)?.slice(0, 64)})`
  return keyword === undefined
    ? 'it does not match the JSON Schema meta-schema'
    : `'${keyword}' at ${where} is invalid${shown}`
}
