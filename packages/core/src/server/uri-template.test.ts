import { describe, expect, it } from 'vitest'
import { compileUriTemplate } from './uri-template.ts'

const match = (template: string, uri: string) => compileUriTemplate(template).match(uri)

describe('compileUriTemplate', () => {
  it('matchesASimpleVariableAndListsItsVariables', () => {
    const template = compileUriTemplate('notes://{id}')
    expect(template.variables).toEqual(['id'])
    expect(template.match('notes://42')).toEqual({ id: '42' })
  })

  it('neverLetsASimpleVariableSpanASlashQueryOrFragment', () => {
    expect(match('notes://{id}', 'notes://a/b')).toBeUndefined()
    expect(match('notes://{id}', 'notes://a?x=1')).toBeUndefined()
    expect(match('notes://{id}', 'notes://a#top')).toBeUndefined()
    expect(match('notes://{id}', 'notes://')).toBeUndefined()
  })

  it('matchesSeveralSimpleVariablesBetweenLiterals', () => {
    expect(match('db://{schema}/tables/{table}', 'db://public/tables/users')).toEqual({
      schema: 'public',
      table: 'users',
    })
    expect(match('db://{schema}/tables/{table}', 'db://public/views/users')).toBeUndefined()
  })

  it('splitsACommaListInOneSimpleExpression', () => {
    expect(match('map://{x,y}', 'map://3,4')).toEqual({ x: '3', y: '4' })
  })

  it('percentDecodesValues', () => {
    expect(match('notes://{id}', 'notes://caf%C3%A9%20au%20lait')).toEqual({ id: 'café au lait' })
  })

  it('refusesABrokenPercentEncoding', () => {
    expect(match('notes://{id}', 'notes://%E0%A4%A')).toBeUndefined()
  })

  it('refusesAnEncodedSlashOrDotSegmentInASimpleVariable', () => {
    expect(match('docs://{name}', 'docs://..%2F..%2Fetc%2Fpasswd')).toBeUndefined()
    expect(match('docs://{name}', 'docs://..')).toBeUndefined()
    expect(match('files://root{/name}', 'files://root/%2E%2E')).toBeUndefined()
  })

  it('letsAReservedExpansionSpanSlashes', () => {
    expect(match('repo://{+path}', 'repo://src/lib/a.ts')).toEqual({ path: 'src/lib/a.ts' })
    expect(match('repo://{+path}/raw', 'repo://src/a.ts/raw')).toEqual({ path: 'src/a.ts' })
  })

  it('matchesAnOptionalFragment', () => {
    expect(match('page://doc{#section}', 'page://doc#intro')).toEqual({ section: 'intro' })
    expect(match('page://doc{#section}', 'page://doc')).toEqual({})
  })

  it('matchesAPathSegmentExpansion', () => {
    expect(match('files://root{/name}', 'files://root/readme')).toEqual({ name: 'readme' })
    expect(match('files://root{/name}', 'files://root/a/b')).toBeUndefined()
  })

  it('matchesQueryParametersInAnyOrderAndIgnoresUnknownOnes', () => {
    expect(match('search://all{?q,lang}', 'search://all?lang=fr&q=caf%C3%A9&page=2')).toEqual({
      q: 'café',
      lang: 'fr',
    })
    expect(match('search://all{?q,lang}', 'search://all')).toEqual({})
  })

  it('matchesAQueryContinuation', () => {
    expect(match('search://all{?q}{&lang}', 'search://all?q=x&lang=de')).toEqual({ q: 'x', lang: 'de' })
  })

  it('escapesRegexCharactersInLiterals', () => {
    expect(match('a.b+c://{x}', 'a.b+c://1')).toEqual({ x: '1' })
    expect(match('a.b+c://{x}', 'aXb+c://1')).toBeUndefined()
    expect(match('q://(x)|{y}', 'q://(x)|1')).toEqual({ y: '1' })
  })

  it('refusesAnUnclosedOrUnsupportedExpressionAtTheEnd', () => {
    expect(() => compileUriTemplate('notes://{id')).toThrow(TypeError)
    expect(() => compileUriTemplate('notes://{;id}')).toThrow(TypeError)
    expect(() => compileUriTemplate('notes://{id:3}')).toThrow(TypeError)
  })

  it('matchesAMultiVariablePathSegmentExpansion', () => {
    expect(match('files://root{/dir,name}', 'files://root/docs/readme')).toEqual({
      dir: 'docs',
      name: 'readme',
    })
  })

  it('refusesUnsupportedOperatorsAndModifiersAnywhereInTheTemplate', () => {
    for (const template of [
      'file://x{.ext}',
      'a://{;x}/{y}',
      'x://{/path*}/y/{z}',
      'x://{var:3}/{y}',
      'x://}{y}',
    ]) {
      expect(() => compileUriTemplate(template), template).toThrow(TypeError)
    }
  })

  it('keepsEqualsSignsInsideAQueryValue', () => {
    expect(match('search://all{?q}', 'search://all?q=YQ==')).toEqual({ q: 'YQ==' })
  })
})
