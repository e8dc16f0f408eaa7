/**
 * @module uri-template.test
 * Filling in templates as RFC 6570 does (its own examples, levels 1 to 3), and so that the
 * server's matcher reads back what was filled in, whatever the values hold; a modifier the
 * console cannot fill is refused with the expression named.
 */
import { describe, expect, it } from 'vitest'
import { compileUriTemplate } from '../../../core/src/server/uri-template.ts'
import { expandTemplate, templateVariables } from './uri-template.ts'

// RFC 6570 section 3.2.1.
const VALUES = { var: 'value', hello: 'Hello World!', path: '/foo/bar', empty: '', x: '1024', y: '768' }

describe('expandTemplate', () => {
  it('expandsTheExamplesOfRfc6570LevelsOneToThree', () => {
    const examples: Array<[string, string]> = [
      ['{var}', 'value'],
      ['{hello}', 'Hello%20World%21'],
      ['{+var}', 'value'],
      ['{+hello}', 'Hello%20World!'],
      ['{+path}/here', '/foo/bar/here'],
      ['here?ref={+path}', 'here?ref=/foo/bar'],
      ['map?{x,y}', 'map?1024,768'],
      ['{x,hello,y}', '1024,Hello%20World%21,768'],
      ['{+x,hello,y}', '1024,Hello%20World!,768'],
      ['{+path,x}/here', '/foo/bar,1024/here'],
      ['{#x,hello,y}', '#1024,Hello%20World!,768'],
      ['{#path,x}/here', '#/foo/bar,1024/here'],
      ['X{.var}', 'X.value'],
      ['X{.x,y}', 'X.1024.768'],
      ['{/var}', '/value'],
      ['{/var,x}/here', '/value/1024/here'],
      ['{;x,y}', ';x=1024;y=768'],
      ['{;x,y,empty}', ';x=1024;y=768;empty'],
      ['{?x,y}', '?x=1024&y=768'],
      ['{?x,y,empty}', '?x=1024&y=768&empty='],
      ['?fixed=yes{&x}', '?fixed=yes&x=1024'],
      ['{&x,y,empty}', '&x=1024&y=768&empty='],
      ['{?x,undefined}', '?x=1024'],
      ['before{undefined}after', 'beforeafter'],
    ]
    for (const [template, expected] of examples)
      expect(expandTemplate(template, VALUES), template).toBe(expected)
  })

  it('fillsInWhatTheServersMatcherReadsBack', () => {
    const cases: Array<[string, Record<string, string>]> = [
      ['ops://runbooks/{service}', { service: 'check out, now & then?' }],
      ['files://{+path}', { path: 'docs/a b/100%/é.md' }],
      ['search://q{?term,page}', { term: 'a&b=c d#e', page: '2' }],
      ['docs://{/section,page}{#anchor}', { section: 'guides', page: 'dev console', anchor: 'try it' }],
      ['notes://teams/{team}{?day}', { team: 'site reliability' }],
    ]
    for (const [template, values] of cases)
      expect(compileUriTemplate(template).match(expandTemplate(template, values)), template).toEqual(values)
  })

  it('encodesASlashSoASimpleValueNeverLeavesItsSegment', () => {
    const uri = expandTemplate('ops://runbooks/{service}', { service: '../keys' })
    expect(uri).toBe('ops://runbooks/..%2Fkeys')
    expect(compileUriTemplate('ops://runbooks/{service}').match(uri)).toBeUndefined()
  })

  it('encodesEachByteOfACharacterOutsideAscii', () => {
    expect(expandTemplate('{x}', { x: 'é€😀' })).toBe('%C3%A9%E2%82%AC%F0%9F%98%80')
  })
})

describe('templateVariables', () => {
  it('namesEachVariableOnceWithTheOperatorOfItsFirstExpression', () => {
    expect(templateVariables('notes://{team}/{+path}{?team,day}{#part}')).toEqual([
      { name: 'team', operator: '' },
      { name: 'path', operator: '+' },
      { name: 'day', operator: '?' },
      { name: 'part', operator: '#' },
    ])
  })

  it('refusesWhatItCannotFillNamingTheExpression', () => {
    expect(() => templateVariables('a/{list*}')).toThrow(
      new TypeError("'a/{list*}': {list*} uses a modifier (* or :) the console cannot fill in."),
    )
    expect(() => templateVariables('a/{var:3}')).toThrow(/\{var:3\} uses a modifier/)
    expect(() => templateVariables('a/{var')).toThrow(
      new TypeError("'a/{var' has a '{' that is never closed."),
    )
    expect(() => templateVariables('a/var}')).toThrow(
      new TypeError("'a/var}' has a '}' that closes nothing."),
    )
    expect(() => templateVariables('a/{x y}')).toThrow(
      new TypeError("'a/{x y}': {x y} is not a variable name."),
    )
  })
})
