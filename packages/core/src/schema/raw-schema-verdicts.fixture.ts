/**
 * @module raw-schema-verdicts.fixture
 * One validation suite for every engine of `#raw-schema`: each case is a schema, a value, and the
 * verdict every platform must give (the value with its defaults, or the path and message of the
 * first fault), plus schemas every platform must refuse at registration. Run by the unit test on
 * Node against both engines, and inside workerd against the engine a Worker loads.
 */
import type { JsonSchema, RawSchemaEngine, Validation } from './raw-schema.ts'
import { compileSchema } from './validator.ts'

export interface VerdictCase {
  name: string
  schema: JsonSchema
  io?: 'input' | 'output'
  value: unknown
  verdict: Validation
}

const DRAFT_07 = 'http://json-schema.org/draft-07/schema#'
const DRAFT_2020 = 'https://json-schema.org/draft/2020-12/schema'

const deploy: JsonSchema = {
  type: 'object',
  properties: {
    service: { type: 'string', minLength: 2, maxLength: 16, pattern: '^[a-z-]+$' },
    replicas: { type: 'integer', minimum: 1, maximum: 10, default: 3 },
    ratio: { type: 'number', exclusiveMinimum: 0, exclusiveMaximum: 1, multipleOf: 0.25 },
    region: { enum: ['eu', 'us'] },
    kind: { const: 'deploy' },
    tags: { type: 'array', items: { type: 'string' }, minItems: 1, maxItems: 3, uniqueItems: true },
    when: { type: 'string', format: 'date-time' },
    rollout: {
      type: 'object',
      properties: { surge: { type: 'integer', default: 1 }, pause: { type: 'boolean', default: false } },
      additionalProperties: false,
      default: {},
    },
  },
  required: ['service'],
}

const ok = (value: unknown): Validation => ({ ok: true, value })
const fault = (path: string, message: string): Validation => ({ ok: false, path, message })

export const VERDICT_CASES: readonly VerdictCase[] = [
  {
    name: 'defaultsFilledAtEveryDepth',
    schema: deploy,
    value: { service: 'api' },
    verdict: ok({ service: 'api', replicas: 3, rollout: { surge: 1, pause: false } }),
  },
  {
    name: 'defaultsInDraft07',
    schema: { $schema: DRAFT_07, ...deploy },
    value: { service: 'api', replicas: 5 },
    verdict: ok({ service: 'api', replicas: 5, rollout: { surge: 1, pause: false } }),
  },
  {
    name: 'noDefaultsIntoAnOutput',
    schema: deploy,
    io: 'output',
    value: { service: 'api' },
    verdict: ok({ service: 'api' }),
  },
  {
    name: 'formatIsAnAnnotation',
    schema: deploy,
    value: { service: 'api', when: 'not a date' },
    verdict: ok({ service: 'api', when: 'not a date', replicas: 3, rollout: { surge: 1, pause: false } }),
  },
  {
    name: 'missingRequired',
    schema: deploy,
    value: { replicas: 2 },
    verdict: fault('/service', "must have required property 'service'"),
  },
  {
    name: 'wrongType',
    schema: deploy,
    io: 'output',
    value: { service: 7 },
    verdict: fault('/service', 'must be string'),
  },
  {
    name: 'tooShort',
    schema: deploy,
    io: 'output',
    value: { service: 'a' },
    verdict: fault('/service', 'must NOT have fewer than 2 characters'),
  },
  {
    name: 'tooLong',
    schema: deploy,
    io: 'output',
    value: { service: 'a'.repeat(17) },
    verdict: fault('/service', 'must NOT have more than 16 characters'),
  },
  {
    name: 'pattern',
    schema: deploy,
    io: 'output',
    value: { service: 'API' },
    verdict: fault('/service', 'must match pattern "^[a-z-]+$"'),
  },
  {
    name: 'integer',
    schema: deploy,
    io: 'output',
    value: { service: 'api', replicas: 1.5 },
    verdict: fault('/replicas', 'must be integer'),
  },
  {
    name: 'minimum',
    schema: deploy,
    io: 'output',
    value: { service: 'api', replicas: 0 },
    verdict: fault('/replicas', 'must be >= 1'),
  },
  {
    name: 'maximum',
    schema: deploy,
    io: 'output',
    value: { service: 'api', replicas: 11 },
    verdict: fault('/replicas', 'must be <= 10'),
  },
  {
    name: 'exclusiveMinimum',
    schema: deploy,
    io: 'output',
    value: { service: 'api', ratio: 0 },
    verdict: fault('/ratio', 'must be > 0'),
  },
  {
    name: 'exclusiveMaximum',
    schema: deploy,
    io: 'output',
    value: { service: 'api', ratio: 1 },
    verdict: fault('/ratio', 'must be < 1'),
  },
  {
    name: 'multipleOf',
    schema: deploy,
    io: 'output',
    value: { service: 'api', ratio: 0.3 },
    verdict: fault('/ratio', 'must be multiple of 0.25'),
  },
  {
    name: 'enum',
    schema: deploy,
    io: 'output',
    value: { service: 'api', region: 'ap' },
    verdict: fault('/region', 'must be equal to one of the allowed values'),
  },
  {
    name: 'const',
    schema: deploy,
    io: 'output',
    value: { service: 'api', kind: 'other' },
    verdict: fault('/kind', 'must be equal to constant'),
  },
  {
    name: 'minItems',
    schema: deploy,
    io: 'output',
    value: { service: 'api', tags: [] },
    verdict: fault('/tags', 'must NOT have fewer than 1 items'),
  },
  {
    name: 'maxItems',
    schema: deploy,
    io: 'output',
    value: { service: 'api', tags: ['a', 'b', 'c', 'd'] },
    verdict: fault('/tags', 'must NOT have more than 3 items'),
  },
  {
    name: 'itemType',
    schema: deploy,
    io: 'output',
    value: { service: 'api', tags: ['a', 2] },
    verdict: fault('/tags/1', 'must be string'),
  },
  {
    name: 'additionalProperties',
    schema: deploy,
    io: 'output',
    value: { service: 'api', rollout: { surge: 1, fast: true } },
    verdict: fault('/rollout', 'must NOT have additional properties'),
  },
  {
    name: 'nestedWrongType',
    schema: deploy,
    value: { service: 'api', rollout: { pause: 'no' } },
    verdict: fault('/rollout/pause', 'must be boolean'),
  },
  { name: 'topLevelType', schema: deploy, value: 'api', verdict: fault('/', 'must be object') },
  {
    name: 'typeList',
    schema: { type: ['string', 'null'] },
    io: 'output',
    value: 1,
    verdict: fault('/', 'must be string,null'),
  },
  {
    name: 'escapedPath',
    schema: { type: 'object', properties: { 'a/b~c é': { type: 'string' } } },
    io: 'output',
    value: { 'a/b~c é': 1 },
    verdict: fault('/a~1b~0c é', 'must be string'),
  },
  {
    name: 'localRef',
    schema: { $defs: { n: { type: 'integer' } }, type: 'object', properties: { n: { $ref: '#/$defs/n' } } },
    io: 'output',
    value: { n: 'x' },
    verdict: fault('/n', 'must be integer'),
  },
  {
    name: 'draft07Definitions',
    schema: {
      $schema: DRAFT_07,
      definitions: { n: { type: 'integer', minimum: 2 } },
      type: 'object',
      properties: { n: { $ref: '#/definitions/n' } },
    },
    io: 'output',
    value: { n: 1 },
    verdict: fault('/n', 'must be >= 2'),
  },
  {
    name: 'prefixItems',
    schema: { $schema: DRAFT_2020, type: 'array', prefixItems: [{ type: 'string' }, { type: 'integer' }] },
    io: 'output',
    value: ['a', 'b'],
    verdict: fault('/1', 'must be integer'),
  },
  {
    name: 'notValid',
    schema: { not: { type: 'string' } },
    io: 'output',
    value: 'x',
    verdict: fault('/', 'must NOT be valid'),
  },
  {
    name: 'falseSchema',
    schema: { type: 'object', properties: { never: false } },
    io: 'output',
    value: { never: 1 },
    verdict: fault('/never', 'boolean schema is false'),
  },
  {
    name: 'minProperties',
    schema: { type: 'object', minProperties: 1 },
    io: 'output',
    value: {},
    verdict: fault('/', 'must NOT have fewer than 1 properties'),
  },
  {
    name: 'accepted',
    schema: deploy,
    io: 'output',
    value: { service: 'api', replicas: 2, ratio: 0.5, region: 'eu', kind: 'deploy', tags: ['x'] },
    verdict: ok({ service: 'api', replicas: 2, ratio: 0.5, region: 'eu', kind: 'deploy', tags: ['x'] }),
  },
  {
    name: 'emptySchemaAcceptsAnything',
    schema: {},
    io: 'output',
    value: [1, 'two', null],
    verdict: ok([1, 'two', null]),
  },
]

/** Schemas every engine refuses at registration, with how its message must start. */
export const INVALID_SCHEMAS: ReadonlyArray<{ name: string; schema: JsonSchema }> = [
  { name: 'unknownType', schema: { type: 'object', properties: { replicas: { type: 'nmber' } } } },
  { name: 'requiredNotAnArray', schema: { type: 'object', required: 'service' } },
  { name: 'negativeMinLength', schema: { type: 'string', minLength: -1 } },
  {
    name: 'unresolvableReference',
    schema: { type: 'object', properties: { n: { $ref: '#/$defs/missing' } } },
  },
  { name: 'draft07PropertiesNotAnObject', schema: { $schema: DRAFT_07, properties: [] } },
]

/** Every case the engine answers otherwise than the suite says, in words; empty when all agree. */
export function verdictMismatches(engine: RawSchemaEngine): string[] {
  const out: string[] = []
  for (const c of VERDICT_CASES) {
    let got: unknown
    try {
      got = engine.compileRawSchema(
        structuredClone(c.schema),
        c.io ?? 'input',
        'case',
      )(structuredClone(c.value))
    } catch (error) {
      got = `threw ${(error as Error).message}`
    }
    if (JSON.stringify(got) !== JSON.stringify(c.verdict)) out.push(`${c.name}: ${JSON.stringify(got)}`)
  }
  for (const c of INVALID_SCHEMAS) {
    try {
      engine.compileRawSchema(structuredClone(c.schema), 'input', `Tool '${c.name}': input`)
      out.push(`${c.name}: accepted`)
    } catch (error) {
      const message = (error as Error).message
      if (
        !(error instanceof TypeError) ||
        !message.startsWith(`Tool '${c.name}': input is not a valid JSON Schema: `)
      ) {
        out.push(`${c.name}: ${message}`)
      }
    }
  }
  return out
}

/** The cases the engine this platform loads (`#raw-schema`, through `compileSchema`) answers otherwise. */
export function platformVerdictMismatches(): string[] {
  return verdictMismatches({
    compileRawSchema(schema, io, label) {
      const compiled = compileSchema(schema, io, label)
      return (value) => compiled.validate(value)
    },
  })
}
