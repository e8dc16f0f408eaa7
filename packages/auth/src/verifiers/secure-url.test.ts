import { describe, expect, it } from 'vitest'
import { secureUrl } from './secure-url.ts'

describe('secureUrl', () => {
  it('acceptsHttpsAndLoopbackHttpOnly', () => {
    for (const ok of [
      'https://idp.example/jwks',
      'http://127.0.0.1:8080/jwks',
      'http://localhost/jwks',
      'http://[::1]/x',
    ])
      expect(secureUrl(new URL(ok), 'jwks').href).toBe(new URL(ok).href)
    for (const bad of [
      'http://idp.example/jwks',
      'http://10.0.0.1/jwks',
      'ftp://idp.example/jwks',
      'http://127.0.0.1.evil.example/',
    ])
      expect(() => secureUrl(new URL(bad), 'jwks')).toThrow(/https URL/)
  })
})
