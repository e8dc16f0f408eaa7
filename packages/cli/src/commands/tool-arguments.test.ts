import { describe, expect, it } from 'vitest'
import { UsageError } from './failure.ts'
import { toolArguments } from './tool-arguments.ts'

const schema = {
  type: 'object',
  properties: {
    name: { type: 'string' },
    count: { type: 'integer' },
    ratio: { type: 'number' },
    loud: { type: 'boolean' },
    tags: { type: 'array' },
  },
}

describe('toolArguments', () => {
  it('readsEachArgAsTheTypeTheSchemaGivesIt', () => {
    const args = ['name=42', 'count=3', 'ratio=0.5', 'loud=true', 'tags=["a","b"]']
    expect(toolArguments(schema, undefined, args)).toEqual({
      name: '42',
      count: 3,
      ratio: 0.5,
      loud: true,
      tags: ['a', 'b'],
    })
  })

  it('startsFromJsonAndLetsArgsOverrideIt', () => {
    expect(toolArguments(schema, '{"name":"a","count":1}', ['count=2'])).toEqual({ name: 'a', count: 2 })
  })

  it('keepsEverythingAfterTheFirstEqualsSign', () => {
    expect(toolArguments(schema, undefined, ['name=a=b'])).toEqual({ name: 'a=b' })
  })

  it('readsAnUnknownKeyAsJsonWhenItLooksLikeJsonElseAsText', () => {
    expect(toolArguments(schema, undefined, ['n=7', 'word=hello', 'odd=7up'])).toEqual({
      n: 7,
      word: 'hello',
      odd: '7up',
    })
  })

  it('refusesValuesThatAreNotTheirType', () => {
    for (const bad of ['count=1.5', 'count=', 'ratio=x', 'loud=yes', 'tags=[', 'novalue', '=x']) {
      expect(() => toolArguments(schema, undefined, [bad])).toThrow(UsageError)
    }
    expect(() => toolArguments(schema, '[1]', [])).toThrow(
      '--json must be one object of the arguments by name',
    )
    expect(() => toolArguments(schema, '{', [])).toThrow(/--json is not JSON/)
  })
})
