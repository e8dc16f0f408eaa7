/**
 * @module schema-fingerprint.test
 * Two schemas built alike share a fingerprint, and so the JSON Schema of a form built anew on
 * every call is converted once; anything that changes the JSON Schema (an enum value, a check, a
 * description, a default, the optional mark) changes the fingerprint; what a fingerprint cannot
 * see (a refinement, a transform) leaves the schema without one. Whatever the cache serves is what
 * a conversion of that very schema gives.
 */
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { schemaFingerprint } from './schema-fingerprint.ts'
import { elicitationFormOf } from './validator.ts'

const form = (versions: string[], minimum = 3) =>
  z.object({
    version: z.enum(versions as [string, ...string[]]).describe('The version to return to'),
    reason: z.string().min(minimum, 'Say why').optional(),
    notify: z.boolean().default(true),
    count: z.number().int().max(10),
    channels: z.array(z.enum(['email', 'pager'])),
    contact: z.email(),
  })

describe('schemaFingerprint', () => {
  it('isTheSameForTwoSchemasBuiltAlike', () => {
    const print = schemaFingerprint(form(['1', '2']))
    expect(print).toBeDefined()
    expect(schemaFingerprint(form(['1', '2']))).toBe(print)
  })

  it('differsWhereTheJsonSchemaWouldDiffer', () => {
    const variants = [
      form(['1', '2']),
      form(['1', '3']),
      form(['1', '2'], 4),
      z.object({ version: z.enum(['1', '2']) }),
      z.object({ version: z.enum(['1', '2']).describe('Which') }),
      z.object({ version: z.enum(['1', '2']).optional() }),
      z.object({ version: z.enum(['1', '2']).default('1') }),
      z.object({ version: z.enum(['1', '2']).default('2') }),
      z.object({ version: z.enum(['1', '2']) }).meta({ title: 'Roll back' }),
      z.object({ version: z.string() }),
      z.object({ release: z.string() }),
    ]
    const prints = variants.map(schemaFingerprint)
    expect(prints.every((print) => print !== undefined)).toBe(true)
    expect(new Set(prints).size).toBe(variants.length)
  })

  it('tellsApartChecksWhoseGuardsAreTheApplicationsOwn', () => {
    // zod runs a check's `when` guard though its types do not offer one on `min`.
    const guarded = () => z.object({ name: z.string().min(3, { when: () => true } as never) })
    expect(schemaFingerprint(guarded())).toBeDefined()
    expect(schemaFingerprint(guarded())).not.toBe(schemaFingerprint(guarded()))
    // A message of its own changes no fingerprint: it words a refusal, never what is accepted.
    expect(schemaFingerprint(z.object({ name: z.string().min(3, 'Too short') }))).toBe(
      schemaFingerprint(z.object({ name: z.string().min(3) })),
    )
  })

  it('leavesASchemaThatHoldsARefinementOrATransformWithoutOne', () => {
    expect(schemaFingerprint(z.object({ name: z.string().refine((v) => v !== 'root') }))).toBeUndefined()
    expect(schemaFingerprint(z.object({ name: z.string().transform((v) => v.trim()) }))).toBeUndefined()
    expect(schemaFingerprint(z.object({ name: z.lazy(() => z.string()) }))).toBeUndefined()
  })
})

describe('elicitationFormOf', () => {
  it('convertsAFormBuiltAnewOnEveryCallOnceAndServesWhatAConversionGives', () => {
    const firstSchema = form(['2026.10.1', '2026.10.2'])
    const first = elicitationFormOf(firstSchema).requestedSchema
    const again = elicitationFormOf(form(['2026.10.1', '2026.10.2']))
    expect(again.requestedSchema).toBe(first)
    // Its answers are read by the first schema of the shape, whose parser is compiled already.
    expect(again.schema).toBe(firstSchema)
    const {
      $schema: _s,
      additionalProperties: _a,
      ...fresh
    } = z.toJSONSchema(form(['2026.10.1', '2026.10.2']), {
      io: 'input',
      target: 'draft-2020-12',
    })
    expect(first).toEqual(fresh)
    const other = elicitationFormOf(form(['2026.10.1', '2026.11.0'])).requestedSchema
    expect(other).not.toBe(first)
    expect(JSON.stringify(other)).toContain('2026.11.0')
  })

  it('stillRefusesAFieldNoFormCanAskForEveryTime', () => {
    const nested = () => z.object({ where: z.object({ city: z.string() }) })
    expect(() => elicitationFormOf(nested())).toThrow(/field 'where'/)
    expect(() => elicitationFormOf(nested())).toThrow(/field 'where'/)
  })
})
