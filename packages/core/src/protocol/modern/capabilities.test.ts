/**
 * @module capabilities.test
 * What a server keeps of a client's capabilities beyond one request: every declaration the
 * capability checks read, and none of what the client wrote inside them.
 */
import { describe, expect, it } from 'vitest'
import {
  type ClientCapabilities,
  capabilityDeclarations,
  declares,
  declaresExtension,
} from './capabilities.ts'

const PADDING = 'x'.repeat(100_000)

describe('capabilityDeclarations', () => {
  it('keepsEveryDeclarationTheChecksReadAsAnEmptyObject', () => {
    const caps: ClientCapabilities = {
      elicitation: { form: { padding: PADDING }, url: { padding: PADDING } },
      sampling: { context: { padding: PADDING }, tools: {} },
      roots: { listChanged: true, padding: PADDING },
      extensions: { 'io.modelcontextprotocol/tasks': { padding: PADDING } },
      experimental: { anything: { padding: PADDING } },
      padding: PADDING,
    }
    const kept = capabilityDeclarations(caps)
    expect(kept).toEqual({
      elicitation: { form: {}, url: {} },
      sampling: { context: {}, tools: {} },
      roots: { listChanged: true },
      extensions: { 'io.modelcontextprotocol/tasks': {} },
    })
    for (const kind of [
      'elicitation-form',
      'elicitation-url',
      'sampling',
      'sampling-tools',
      'roots',
    ] as const) {
      expect(declares(kept, kind)).toBe(declares(caps, kind))
    }
    expect(declaresExtension(kept, 'io.modelcontextprotocol/tasks')).toBe(true)
  })

  it('keepsAnEmptyElicitationAsTheFormOnlyDeclarationItIs', () => {
    const kept = capabilityDeclarations({ elicitation: {} })
    expect(kept).toEqual({ elicitation: {} })
    expect(declares(kept, 'elicitation-form')).toBe(true)
    expect(declares(kept, 'elicitation-url')).toBe(false)
  })

  it('boundsTheExtensionsItKeeps', () => {
    const many = Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`ext.example/${i}`, {}]))
    const extensions = { ...many, ['n'.repeat(300)]: {}, notAnObject: 1 }
    const kept = capabilityDeclarations({ extensions })
    expect(Object.keys(kept.extensions ?? {})).toHaveLength(32)
    expect(Object.keys(kept.extensions ?? {}).every((name) => name.startsWith('ext.example/'))).toBe(true)
  })

  it('dropsWhatIsNotADeclaration', () => {
    expect(capabilityDeclarations({ elicitation: 'yes', sampling: [], roots: null })).toEqual({})
  })
})
