/**
 * @module validator.test
 * Defaults of a raw JSON Schema input are applied before the handler runs, as zod's are, in
 * either dialect and at any depth, without touching what the client sent; an output schema's
 * defaults are never filled in. An invalid schema is refused in words: the keyword, where, and
 * what it must be.
 */
import { describe, expect, it, vi } from 'vitest'
import { z } from 'zod'
import { compileSchema } from './validator.ts'

const scale = {
  type: 'object',
  properties: {
    service: { type: 'string' },
    replicas: { type: 'integer', default: 3 },
    rollout: {
      type: 'object',
      properties: { surge: { type: 'integer', default: 1 }, pause: { type: 'boolean', default: false } },
      default: {},
    },
  },
  required: ['service'],
}

describe('compileSchema: defaults', () => {
  it('appliesTheDefaultsOfARawJsonSchemaInputAtEveryDepth', () => {
    const checked = compileSchema(scale, 'input').validate({ service: 'api' })
    expect(checked).toEqual({
      ok: true,
      value: { service: 'api', replicas: 3, rollout: { surge: 1, pause: false } },
    })
  })

  it('appliesThemInDraft07Too', () => {
    const draft07 = { $schema: 'http://json-schema.org/draft-07/schema#', ...scale }
    expect(compileSchema(draft07, 'input').validate({ service: 'api', replicas: 5 })).toEqual({
      ok: true,
      value: { service: 'api', replicas: 5, rollout: { surge: 1, pause: false } },
    })
  })

  it('givesTheHandlerWhatTheEquivalentZodSchemaGives', () => {
    const zod = z.object({ service: z.string(), replicas: z.number().int().default(3) })
    const raw = {
      type: 'object',
      properties: { service: { type: 'string' }, replicas: { type: 'integer', default: 3 } },
      required: ['service'],
    }
    const sent = { service: 'api' }
    expect(compileSchema(raw, 'input').validate(sent)).toEqual(compileSchema(zod, 'input').validate(sent))
  })

  it('leavesWhatTheClientSentAsItWas', () => {
    const sent = { service: 'api', rollout: { surge: 2 } }
    compileSchema(scale, 'input').validate(sent)
    expect(sent).toEqual({ service: 'api', rollout: { surge: 2 } })
  })

  it('fillsNothingIntoAnOutput', () => {
    const result = { service: 'api' }
    expect(compileSchema(scale, 'output').validate(result)).toEqual({ ok: true, value: { service: 'api' } })
  })

  it('stillRefusesWhatTheSchemaRefuses', () => {
    expect(compileSchema(scale, 'input').validate({ replicas: 2 })).toMatchObject({
      ok: false,
      path: '/service',
    })
  })
})

describe('compileSchema: an invalid JSON Schema', () => {
  const refusal = (schema: Record<string, unknown>) => {
    try {
      compileSchema(schema, 'input', "Tool 'scale': input")
    } catch (error) {
      return (error as Error).message
    }
    return undefined
  }

  it('namesTheKeywordWhereItStandsAndWhatItMustBe', () => {
    expect(refusal({ type: 'object', properties: { replicas: { type: 'nmber' } } })).toBe(
      "Tool 'scale': input is not a valid JSON Schema: 'type' at /properties/replicas must be one of array, boolean, integer, null, number, object, string (it is \"nmber\").",
    )
  })

  it('saysWhenTheFaultIsAtTheTopLevel', () => {
    expect(refusal({ type: 'object', required: 'service' })).toBe(
      "Tool 'scale': input is not a valid JSON Schema: 'required' at the top level must be array (it is \"service\").",
    )
  })

  it('namesAReferenceThatResolvesToNothing', () => {
    expect(refusal({ type: 'object', properties: { n: { $ref: '#/$defs/missing' } } })).toMatch(
      /^Tool 'scale': input is not a valid JSON Schema: can't resolve reference #\/\$defs\/missing/,
    )
  })
})

describe('compileSchema: a platform without code generation', () => {
  // Workers forbid `new Function`, which ajv compiles every schema with.
  it('saysARawSchemaNeedsCodeGenerationInsteadOfCallingItInvalid', () => {
    const refuse = function refuse(): never {
      throw new EvalError('Code generation from strings disallowed for this context')
    }
    vi.stubGlobal('Function', refuse)
    try {
      const schema = { type: 'object', properties: { nowhere: { const: 'a fresh schema' } } }
      expect(() => compileSchema(schema, 'input', "Tool 'deploy': input")).toThrow(
        "Tool 'deploy': input: this platform forbids compiling code from strings, which ajv needs for a raw JSON Schema; use a zod schema.",
      )
    } finally {
      vi.unstubAllGlobals()
    }
    expect(compileSchema(z.object({ name: z.string() })).validate({ name: 'Ada' }).ok).toBe(true)
  })
})
