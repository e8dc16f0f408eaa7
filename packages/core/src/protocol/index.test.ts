import { describe, expect, it } from 'vitest'
import { encodeHeaderValue, paramHeaders } from './index.ts'

describe('paramHeaders', () => {
  const tool = {
    name: 'deploy',
    inputSchema: {
      type: 'object',
      properties: {
        region: { type: 'string', 'x-mcp-header': 'Region' },
        replicas: { type: 'integer', 'x-mcp-header': 'Replicas' },
        note: { type: 'string' },
      },
    },
  }

  it('mirrorsTheAnnotatedArgumentsTheCallCarries', () => {
    expect(paramHeaders(tool, { region: 'eu-west', replicas: 3, note: 'x' })).toEqual({
      'mcp-param-region': 'eu-west',
      'mcp-param-replicas': '3',
    })
  })

  it('encodesAValueThatIsNotPlainVisibleAscii', () => {
    expect(paramHeaders(tool, { region: 'zürich' })).toEqual({
      'mcp-param-region': encodeHeaderValue('zürich'),
    })
    expect(encodeHeaderValue('zürich')).toMatch(/^=\?base64\?.+\?=$/)
  })

  it('refusesASchemaWhoseAnnotationNoServerMayPlace', () => {
    const bad = {
      name: 't',
      inputSchema: { type: 'object', properties: { a: { type: 'object', 'x-mcp-header': 'A' } } },
    }
    expect(() => paramHeaders(bad, { a: {} })).toThrow(TypeError)
  })
})
