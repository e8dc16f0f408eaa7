/**
 * @module schema-dialect
 * Which keywords of a JSON Schema dialect hold subschemas. Everything else in a schema object is
 * data (instance values, unknown keywords), so the mirror walk must never look inside it: a key
 * spelled `x-mcp-header` inside a `default` is not an annotation, while one hidden under any
 * schema-valued keyword must be found and refused.
 */

export interface SchemaDialect {
  readonly name: string
  /** Keywords whose value is one subschema. */
  readonly single: ReadonlySet<string>
  /** Keywords whose value is an array of subschemas. */
  readonly list: ReadonlySet<string>
  /** Keywords whose value maps names to subschemas (entries that are not schemas are data). */
  readonly map: ReadonlySet<string>
}

const APPLICATORS = ['additionalProperties', 'propertyNames', 'contains', 'if', 'then', 'else', 'not']
const UNEVALUATED = ['unevaluatedItems', 'unevaluatedProperties']
const COMBINATORS = ['allOf', 'anyOf', 'oneOf']
// `definitions` and `dependencies` stay schema-valued in the official 2019-09 and 2020-12
// meta-schemas ("retained … to prevent incompatible extensions"), and zod-to-json-schema emits
// `definitions` even when `$schema` is later stripped: walking them refuses rather than ignores.
const DRAFT07_MAPS = ['definitions', 'dependencies']

// `items` is walked as a schema or an array of schemas in every dialect: an array is the only
// form in draft-07 tuples and invalid in 2020-12, so no dialect gives it a data meaning.
const DRAFT_2020_12 = dialect('2020-12', {
  single: [...APPLICATORS, ...UNEVALUATED, 'items', 'contentSchema'],
  list: [...COMBINATORS, 'prefixItems'],
  map: ['patternProperties', '$defs', 'dependentSchemas', ...DRAFT07_MAPS],
})

const DRAFT_2019_09 = dialect('2019-09', {
  single: [...APPLICATORS, ...UNEVALUATED, 'items', 'additionalItems', 'contentSchema'],
  list: COMBINATORS,
  map: ['patternProperties', '$defs', 'dependentSchemas', ...DRAFT07_MAPS],
})

// Drafts 04 and 06 use a subset of draft-07's schema keywords; walking the superset can only
// refuse more, never ignore an annotation.
const DRAFT_07 = dialect('draft-07', {
  single: [...APPLICATORS, 'items', 'additionalItems'],
  list: COMBINATORS,
  map: ['patternProperties', ...DRAFT07_MAPS],
})

// An unrecognized meta-schema gives no way to tell data from subschemas; the union refuses every
// annotation that any known dialect would consider unreachable.
const UNKNOWN = dialect('unknown', {
  single: [...DRAFT_2020_12.single, ...DRAFT_2019_09.single, ...DRAFT_07.single],
  list: [...DRAFT_2020_12.list, ...DRAFT_07.list],
  map: [...DRAFT_2020_12.map, ...DRAFT_07.map],
})

const BY_URI = new Map<string, SchemaDialect>([
  ['json-schema.org/draft/2020-12/schema', DRAFT_2020_12],
  ['json-schema.org/draft/2019-09/schema', DRAFT_2019_09],
  ['json-schema.org/draft-07/schema', DRAFT_07],
  ['json-schema.org/draft-06/schema', DRAFT_07],
  ['json-schema.org/draft-04/schema', DRAFT_07],
])

/** The dialect named by a root `$schema` value; MCP's default (2020-12) when there is none. */
export function dialectOf(schemaUri: unknown): SchemaDialect {
  if (schemaUri === undefined) return DRAFT_2020_12
  if (typeof schemaUri !== 'string') return UNKNOWN
  const key = schemaUri.replace(/^https?:\/\//, '').replace(/#$/, '')
  return BY_URI.get(key) ?? UNKNOWN
}

function dialect(
  name: string,
  keywords: { single: Iterable<string>; list: Iterable<string>; map: Iterable<string> },
): SchemaDialect {
  return { name, single: new Set(keywords.single), list: new Set(keywords.list), map: new Set(keywords.map) }
}
