import { describe, expect, it } from 'vitest'
import { buildMirrorTable } from './mirror-table.ts'

const DRAFT_07 = 'http://json-schema.org/draft-07/schema#'
const DRAFT_2020 = 'https://json-schema.org/draft/2020-12/schema'

/** An object schema whose `properties` are the given ones. */
const tool = (properties: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  type: 'object',
  properties,
  ...extra,
})
const mirrored = (type: string, suffix: unknown) => ({ type, 'x-mcp-header': suffix })
const hidden = { type: 'string', 'x-mcp-header': 'Shard' }

function refusal(schema: Record<string, unknown>, name = 'deploy'): string {
  try {
    buildMirrorTable(name, schema)
  } catch (error) {
    expect(error).toBeInstanceOf(TypeError)
    return (error as TypeError).message
  }
  throw new Error('expected buildMirrorTable to refuse the schema')
}

describe('buildMirrorTable: accepted annotations', () => {
  it('mapsTopLevelStringIntegerAndBooleanProperties', () => {
    const table = buildMirrorTable(
      'deploy',
      tool({
        cluster: mirrored('string', 'Cluster'),
        replicas: mirrored('integer', 'Replica-Count'),
        canary: mirrored('boolean', 'Canary'),
        note: { type: 'string' },
      }),
    )
    expect(table).toEqual([
      { path: ['cluster'], suffix: 'Cluster', header: 'mcp-param-cluster', type: 'string' },
      { path: ['replicas'], suffix: 'Replica-Count', header: 'mcp-param-replica-count', type: 'integer' },
      { path: ['canary'], suffix: 'Canary', header: 'mcp-param-canary', type: 'boolean' },
    ])
  })

  it('followsNestedObjectsThroughPurePropertiesChains', () => {
    const table = buildMirrorTable(
      'deploy',
      tool({
        target: tool({ site: tool({ rack: mirrored('string', 'Rack') }), zone: mirrored('string', 'Zone') }),
        tier: mirrored('integer', 'Tier'),
      }),
    )
    expect(table.map((entry) => [entry.path, entry.header])).toEqual([
      [['target', 'site', 'rack'], 'mcp-param-rack'],
      [['target', 'zone'], 'mcp-param-zone'],
      [['tier'], 'mcp-param-tier'],
    ])
  })

  it('acceptsEveryTcharAndMethodWhichDoesNotClashWithMcpMethod', () => {
    const table = buildMirrorTable(
      't',
      tool({ a: mirrored('string', "!#$%&'*+-.^_`|~09azAZ"), b: mirrored('string', 'Method') }),
    )
    expect(table.map((entry) => entry.header)).toEqual([
      "mcp-param-!#$%&'*+-.^_`|~09azaz",
      'mcp-param-method',
    ])
  })

  it('returnsAnEmptyTableForSchemasWithoutAnnotationsIncludingBooleanSubschemas', () => {
    expect(buildMirrorTable('t', tool({ a: true, b: false, c: { type: 'string' } }))).toEqual([])
    expect(buildMirrorTable('t', { type: 'object' })).toEqual([])
  })

  it('isPureDeterministicAndFrozen', () => {
    const schema = tool({ b: mirrored('string', 'Bee'), a: tool({ c: mirrored('boolean', 'Sea') }) })
    const before = JSON.stringify(schema)
    const first = buildMirrorTable('t', schema)
    const second = buildMirrorTable('t', schema)
    expect(second).toEqual(first)
    expect(JSON.stringify(schema)).toBe(before)
    expect(Object.isFrozen(first)).toBe(true)
    expect(Object.isFrozen(first[0])).toBe(true)
    expect(Object.isFrozen(first[0]?.path)).toBe(true)
  })
})

describe('buildMirrorTable: the annotation value', () => {
  it('refusesASuffixWithATrailingNewline', () => {
    expect(refusal(tool({ lane: mirrored('string', 'Lane\n') }))).toMatch(
      /'Lane\\x0a' is not a non-empty HTTP token/,
    )
  })

  it('refusesEmptySuffixesAndNonTcharCharacters', () => {
    for (const suffix of [
      '',
      'Lane Id',
      'Lane:Id',
      'Lane/Id',
      '\tLane',
      'Läne',
      'Lane(1)',
      'a"b',
      'a,b',
      'a;b',
      '@lane',
    ]) {
      expect(refusal(tool({ lane: mirrored('string', suffix) })), JSON.stringify(suffix)).toMatch(
        /HTTP token/,
      )
    }
  })

  it('refusesNonStringAnnotationValues', () => {
    for (const suffix of [7, true, null, ['Lane'], { name: 'Lane' }]) {
      expect(refusal(tool({ lane: mirrored('string', suffix) }))).toMatch(/must be a string/)
    }
  })

  it('refusesSuffixesEqualIgnoringCaseEvenAtDifferentDepths', () => {
    const message = refusal(
      tool({ owner: mirrored('string', 'Team-ID'), meta: tool({ team: mirrored('string', 'team-id') }) }),
    )
    expect(message).toMatch(/value 'team-id' duplicates 'Team-ID' at \/properties\/owner/)
    expect(message).toContain('/properties/meta/properties/team')
  })

  it('namesTheToolAndThePointerBoundedInLength', () => {
    const longTool = `t${'x'.repeat(500)}`
    const message = refusal(tool({ 'a/b~c': mirrored('number', 'Ratio') }), longTool)
    expect(message).toContain('/properties/a~1b~0c')
    expect(message).toContain('…')
    expect(message.length).toBeLessThan(400)
  })
})

describe('buildMirrorTable: the annotated type', () => {
  it('refusesNumberObjectArrayNullTypeArraysAndAMissingType', () => {
    const bad = [{ type: 'number' }, { type: 'object' }, { type: 'array' }, { type: 'null' }]
    bad.push({ type: ['string', 'null'] } as never, { type: 'String' }, {} as never)
    for (const schema of bad) {
      const message = refusal(tool({ v: { ...schema, 'x-mcp-header': 'V' } }))
      expect(message, JSON.stringify(schema)).toMatch(/only "string", "integer" or "boolean" may be mirrored/)
    }
  })

  it('refusesAnAnnotationOnTheRoot', () => {
    expect(refusal({ type: 'object', 'x-mcp-header': 'All' })).toMatch(/schema root/)
  })
})

describe('buildMirrorTable: reachability', () => {
  const unreachable: Record<string, Record<string, unknown>> = {
    items: tool({ list: { type: 'array', items: hidden } }),
    'items (array form)': tool({ list: { type: 'array', items: [hidden] } }),
    prefixItems: tool({ pair: { type: 'array', prefixItems: [{ type: 'string' }, hidden] } }),
    contains: tool({ list: { type: 'array', contains: hidden } }),
    unevaluatedItems: tool({ list: { type: 'array', unevaluatedItems: hidden } }),
    allOf: tool({}, { allOf: [tool({ shard: hidden })] }),
    anyOf: tool({ shard: { anyOf: [hidden, { type: 'integer' }] } }),
    oneOf: tool({}, { oneOf: [{ type: 'object' }, tool({ shard: hidden })] }),
    not: tool({ shard: { not: hidden } }),
    if: tool({}, { if: tool({ shard: hidden }) }),
    // Built from entries: a literal `then` key would make the object a thenable.
    ...Object.fromEntries([
      [
        'then',
        tool(
          {},
          Object.fromEntries([
            ['if', true],
            ['then', tool({ shard: hidden })],
          ]),
        ),
      ],
    ]),
    else: tool({}, { if: true, else: tool({ shard: hidden }) }),
    additionalProperties: tool({}, { additionalProperties: hidden }),
    patternProperties: tool({}, { patternProperties: { '^s': hidden } }),
    propertyNames: tool({}, { propertyNames: hidden }),
    unevaluatedProperties: tool({}, { unevaluatedProperties: hidden }),
    dependentSchemas: tool({ a: { type: 'string' } }, { dependentSchemas: { a: tool({ shard: hidden }) } }),
    $defs: tool({ shard: { $ref: '#/$defs/shard' } }, { $defs: { shard: hidden } }),
    contentSchema: tool({
      blob: { type: 'string', contentMediaType: 'application/json', contentSchema: tool({ s: hidden }) },
    }),
    // Retained as schema containers by the 2020-12 meta-schema; zod-to-json-schema emits them.
    definitions: tool({ shard: { $ref: '#/definitions/shard' } }, { definitions: { shard: hidden } }),
    dependencies: tool({ a: { type: 'string' } }, { dependencies: { a: tool({ shard: hidden }) } }),
    'properties under a branch': tool({ shard: { anyOf: [tool({ inner: hidden })] } }),
  }
  for (const [keyword, schema] of Object.entries(unreachable)) {
    it(`refusesAnAnnotationUnder${keyword}`, () => {
      expect(refusal(schema)).toMatch(/is not statically reachable/)
    })
  }

  it('refusesAnAnnotationReachedOnlyThroughAPropertiesLikeKeywordBelowABranch', () => {
    const message = refusal(tool({}, { anyOf: [{ properties: { deep: tool({ x: hidden }) } }] }))
    expect(message).toContain('/anyOf/0/properties/deep/properties/x')
  })

  it('judgesAnAliasedSubschemaInEveryPositionItIsAdvertised', () => {
    const shared = { type: 'string', 'x-mcp-header': 'Pool' }
    expect(refusal(tool({ pool: shared }, { anyOf: [tool({ pool: shared })] }))).toContain(
      '/anyOf/0/properties/pool',
    )
  })
})

describe('buildMirrorTable: data is never walked', () => {
  it('acceptsAPropertyNamedXMcpHeader', () => {
    const table = buildMirrorTable(
      't',
      tool({ 'x-mcp-header': { type: 'string' }, b: mirrored('string', 'Bee') }),
    )
    expect(table.map((entry) => entry.path)).toEqual([['b']])
  })

  it('alsoWhenThePropertyNamedXMcpHeaderIsItselfAnAnnotatedString', () => {
    const table = buildMirrorTable('t', tool({ 'x-mcp-header': mirrored('string', 'Odd') }))
    expect(table).toEqual([
      { path: ['x-mcp-header'], suffix: 'Odd', header: 'mcp-param-odd', type: 'string' },
    ])
  })

  it('acceptsTheKeyInsideInstanceDataAndUnknownKeywords', () => {
    const data = { 'x-mcp-header': 'Bogus', type: 'string' }
    const schema = tool({
      cfg: {
        type: 'object',
        default: data,
        const: data,
        examples: [data, { nested: data }],
        enum: [data],
        'x-vendor-extension': { properties: { a: data } },
        someFutureKeyword: data,
      },
      names: { type: 'object', dependentRequired: { 'x-mcp-header': ['cfg'] } },
    })
    expect(buildMirrorTable('t', schema)).toEqual([])
  })

  it('readsDraft07ArrayValuedDependenciesAsData', () => {
    const schema = tool(
      { a: { type: 'string' } },
      { $schema: DRAFT_07, dependencies: { 'x-mcp-header': ['a'] } },
    )
    expect(buildMirrorTable('t', schema)).toEqual([])
  })
})

describe('buildMirrorTable: dialects', () => {
  const withAdditionalItems = (dialect: Record<string, unknown>) =>
    tool({ list: { type: 'array', items: [{ type: 'string' }], additionalItems: hidden } }, dialect)
  const withDefs = (dialect: Record<string, unknown>) =>
    tool({ a: { type: 'string' } }, { ...dialect, $defs: { s: hidden } })

  it('readsAdditionalItemsAsDataInDraft2020ExplicitOrDefaultAndWalksItInDraft07', () => {
    expect(buildMirrorTable('t', withAdditionalItems({}))).toEqual([])
    expect(buildMirrorTable('t', withAdditionalItems({ $schema: DRAFT_2020 }))).toEqual([])
    expect(refusal(withAdditionalItems({ $schema: DRAFT_07 }))).toContain('/properties/list/additionalItems')
    expect(refusal(withAdditionalItems({ $schema: 'http://json-schema.org/draft-07/schema' }))).toMatch(
      /reachable/,
    )
  })

  it('walksDefsInDraft2020AndReadsThemAsDataInDraft07', () => {
    expect(refusal(withDefs({}))).toContain('/$defs/s')
    expect(refusal(withDefs({ $schema: `${DRAFT_2020}#` }))).toContain('/$defs/s')
    expect(buildMirrorTable('t', withDefs({ $schema: DRAFT_07 }))).toEqual([])
  })

  it('readsDraft2020OnlyKeywordsAsDataInDraft07', () => {
    const schema = tool(
      { pair: { type: 'array', prefixItems: [hidden], unevaluatedItems: hidden, contentSchema: hidden } },
      { $schema: DRAFT_07, dependentSchemas: { a: hidden }, unevaluatedProperties: hidden },
    )
    expect(buildMirrorTable('t', schema)).toEqual([])
  })

  it('walksDraft07DefinitionsAndSchemaValuedDependencies', () => {
    expect(refusal(tool({}, { $schema: DRAFT_07, definitions: { s: hidden } }))).toContain('/definitions/s')
    expect(refusal(tool({}, { $schema: DRAFT_07, dependencies: { a: tool({ s: hidden }) } }))).toMatch(
      /reachable/,
    )
  })

  it('walksAdditionalItemsInDraft2019', () => {
    expect(refusal(withAdditionalItems({ $schema: 'https://json-schema.org/draft/2019-09/schema' }))).toMatch(
      /reachable/,
    )
  })

  it('walksTheKeywordsOfEveryDialectWhenTheMetaSchemaIsUnknown', () => {
    expect(refusal(withAdditionalItems({ $schema: 'https://example.com/custom-meta' }))).toMatch(/reachable/)
    expect(refusal(withDefs({ $schema: 'https://example.com/custom-meta' }))).toMatch(/reachable/)
  })
})

describe('buildMirrorTable: normalization', () => {
  it('walksTheSchemaAsSerializedSoToJsonOutputIsWhatIsValidated', () => {
    const lazy = { toJSON: () => mirrored('string', 'Lazy') }
    expect(buildMirrorTable('t', tool({ v: lazy }))).toEqual([
      { path: ['v'], suffix: 'Lazy', header: 'mcp-param-lazy', type: 'string' },
    ])
    const masked = { ...mirrored('string', 'Masked'), toJSON: () => ({ type: 'string' }) }
    expect(buildMirrorTable('t', tool({ v: masked }))).toEqual([])
  })

  it('dropsUndefinedAnnotationsLikeJsonDoes', () => {
    expect(buildMirrorTable('t', tool({ v: { type: 'string', 'x-mcp-header': undefined } }))).toEqual([])
  })

  it('refusesASchemaThatCannotBeSerializedNamingTheTool', () => {
    const cyclic: Record<string, unknown> = tool({})
    cyclic['self'] = cyclic
    expect(refusal(cyclic, 'loop-tool')).toMatch(/^Tool 'loop-tool': inputSchema is not serializable/)
    expect(refusal(tool({ v: { type: 'integer', maximum: 10n } }))).toMatch(/not serializable/)
    expect(refusal({ toJSON: () => undefined }, 'void-tool')).toMatch(
      /^Tool 'void-tool': inputSchema is not serializable as JSON \(it has no JSON text\)/,
    )
  })

  it('walksDeepSchemasAndRefusesThoseTooDeepToSerializeWithATypeError', () => {
    const nest = (depth: number) => {
      let schema: Record<string, unknown> = mirrored('string', 'Deep')
      for (let level = 0; level < depth; level += 1) schema = tool({ n: schema })
      return schema
    }
    expect(buildMirrorTable('t', nest(500))[0]?.path.length).toBe(500)
    expect(refusal(nest(100_000))).toMatch(/not serializable/)
  })
})
