/**
 * @module trusted-proxies.test
 * What the proxies in front say of a request, believed only as far as trusted proxies wrote it:
 * the client's address is the first untrusted one of the chain, the host the outermost trusted
 * proxy was asked for; a peer that is not trusted is the client, whatever it sent. And
 * `allowedHosts` with `*.domain`.
 */
import { describe, expect, it } from 'vitest'
import type { HeaderView } from '../../protocol/modern/header-view.ts'
import { checkHostAndOrigin, createHostPolicy } from './host-origin.ts'
import { forwardedBy, trustedProxies } from './trusted-proxies.ts'

function headers(record: Record<string, string>): HeaderView {
  return { get: (name) => record[name], isRepeated: () => false }
}

const behind = (trust: number | string[], peer: string, record: Record<string, string>) =>
  forwardedBy(trustedProxies(trust), peer, headers(record))

describe('forwardedBy', () => {
  it('readsNothingFromAPeerThatIsNotTrusted', () => {
    const sent = { 'x-forwarded-for': '1.2.3.4', 'x-forwarded-host': 'mcp.example.com' }
    expect(behind(['10.0.0.0/8'], '192.0.2.7', sent)).toEqual({
      client: '192.0.2.7',
      host: undefined,
      proto: undefined,
    })
    expect(forwardedBy(undefined, '10.0.0.1', headers(sent)).host).toBeUndefined()
  })

  it('walksTheChainFromThePeerWhileTheProxiesAreTrusted', () => {
    const sent = {
      'x-forwarded-for': '6.6.6.6, 198.51.100.9, 10.0.0.5',
      'x-forwarded-host': 'evil.example, mcp.example.com',
      'x-forwarded-proto': 'https',
    }
    // The peer and 10.0.0.5 are proxies; 198.51.100.9 is the client; 6.6.6.6 is what it claimed.
    expect(behind(['10.0.0.0/8'], '10.0.0.1', sent)).toEqual({
      client: '198.51.100.9',
      host: 'mcp.example.com',
      proto: 'https',
    })
    expect(behind(1, '10.0.0.1', sent).client).toBe('10.0.0.5')
    expect(behind(2, '10.0.0.1', sent).client).toBe('198.51.100.9')
  })

  it('matchesAnIpv4PeerReportedAsIpv6AndIpv6Ranges', () => {
    const sent = { 'x-forwarded-for': '203.0.113.4' }
    expect(behind(['127.0.0.1'], '::ffff:127.0.0.1', sent).client).toBe('203.0.113.4')
    expect(behind(['fd00::/8'], 'fd12::1', sent).client).toBe('203.0.113.4')
    expect(behind(['fd00::/8'], 'fe80::1', sent).client).toBe('fe80::1')
  })

  it('readsTheHostAndSchemeOfForwardedFromTheOutermostTrustedProxy', () => {
    const sent = {
      forwarded:
        'for=6.6.6.6;host=evil.example, for="[2001:db8::7]:4711";host=mcp.example.com;proto=https, for=10.0.0.5',
      'x-forwarded-host': 'ignored.example',
    }
    expect(behind(['10.0.0.0/8'], '10.0.0.1', sent)).toEqual({
      client: '2001:db8::7',
      host: 'mcp.example.com',
      proto: 'https',
    })
  })

  it('refusesATrustListThatIsNoAddressOrRange', () => {
    expect(() => trustedProxies(['10.0.0.0/8', 'proxy.internal'])).toThrow(
      "trustProxy: 'proxy.internal' is not an address or a CIDR range.",
    )
    expect(() => trustedProxies(0)).toThrow(RangeError)
    expect(() => trustedProxies([])).toThrow(TypeError)
  })
})

describe('allowedHosts', () => {
  it('acceptsEverySubdomainOfAStarredDomainButNotTheDomainItself', () => {
    const policy = createHostPolicy({ allowedHosts: ['*.example.com', 'api.example.org'] })
    expect(checkHostAndOrigin(policy, 'eu.mcp.example.com:443', undefined)).toBe('ok')
    expect(checkHostAndOrigin(policy, 'example.com', undefined)).toBe('bad-host')
    expect(checkHostAndOrigin(policy, 'evilexample.com', undefined)).toBe('bad-host')
    expect(checkHostAndOrigin(policy, 'api.example.org', 'https://a.example.com')).toBe('ok')
    expect(checkHostAndOrigin(policy, 'api.example.org', 'https://example.com')).toBe('bad-origin')
    expect(() => createHostPolicy({ allowedHosts: ['*.'] })).toThrow(TypeError)
  })
})
