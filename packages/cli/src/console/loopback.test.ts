import { describe, expect, it } from 'vitest'
import { foreignRequest } from './loopback.ts'

describe('foreignRequest', () => {
  it('servesALoopbackHostWithoutOriginOrWithItsOwn', () => {
    for (const host of ['localhost:3000', '127.0.0.1:3000', '[::1]:3000', 'LOCALHOST:8080', '127.0.0.1']) {
      expect(foreignRequest(host, undefined)).toBeUndefined()
      expect(foreignRequest(host, `http://${host}`)).toBeUndefined()
    }
  })

  it('refusesAForeignHostWhateverTheOrigin', () => {
    for (const host of [
      'evil.example:3000',
      '10.0.0.5:3000',
      'localhost.evil.example',
      '127.0.0.1.nip.io',
      '',
    ]) {
      expect(foreignRequest(host, undefined)).toBeDefined()
    }
    expect(foreignRequest(undefined, undefined)).toBe('Host is missing')
  })

  it('refusesAnOriginThatIsNotThisConsole', () => {
    expect(foreignRequest('127.0.0.1:3000', 'http://evil.example')).toBe('Origin is not this console')
    expect(foreignRequest('127.0.0.1:3000', 'http://127.0.0.1:3001')).toBe('Origin is not this console')
    expect(foreignRequest('127.0.0.1:3000', 'https://127.0.0.1:3000')).toBe('Origin is not this console')
    expect(foreignRequest('127.0.0.1:3000', 'null')).toBe('Origin is not this console')
  })
})
