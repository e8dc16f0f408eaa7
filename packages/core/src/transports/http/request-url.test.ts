/**
 * @module request-url.test
 * Cutting a `Request`'s serialized URL gives what `new URL` gives: the path, the path and query
 * (without a fragment) and the host with its port, whatever the URL holds where.
 */
import { describe, expect, it } from 'vitest'
import { requestUrl } from './request-url.ts'

/** URLs as a runtime serializes them: each went through a `Request`. */
const URLS = [
  'http://127.0.0.1:8400/mcp',
  'http://localhost/mcp',
  'https://api.example.com/mcp',
  'https://api.example.com:8443/mcp?x=1',
  'http://[::1]:3000/mcp?a=/b?c#frag/ment?x',
  'http://host.example:81/a/b;c?d=e/f',
  'http://host.example/mcp?',
  'http://host.example/mcp#',
  'http://host.example/%2Fmcp%3F?q=%23',
  'http://host.example/mcp/../other/./x?y',
  'HTTP://HOST.Example:80/Mcp?Q',
  'https://xn--bcher-kva.example/b%C3%BCcher',
  'http://host.example/?only=query',
]

describe('requestUrl', () => {
  it('cutsEachPartAsNewUrlParsesIt', () => {
    for (const sent of URLS) {
      const href = new Request(sent).url
      const parsed = new URL(href)
      const cut = requestUrl(href)
      expect(cut.pathname, href).toBe(parsed.pathname)
      expect(cut.target.replace(/\?$/, ''), href).toBe(parsed.pathname + parsed.search)
      expect(cut.host(), href).toBe(parsed.host)
    }
  })

  it('keepsAnEmptyQueryInTheTargetAsARequestLineSendsIt', () => {
    expect(requestUrl('http://host.example/mcp?').target).toBe('/mcp?')
    expect(requestUrl('http://host.example/mcp?#x').pathname).toBe('/mcp')
  })

  it('parsesAUrlOfAnotherSchemeWithUrl', () => {
    const cut = requestUrl('ws://host.example:9000/mcp?x#y')
    expect([cut.pathname, cut.target, cut.host()]).toEqual(['/mcp', '/mcp?x', 'host.example:9000'])
  })
})
