/**
 * @module one-line.test
 * What the demo does to text it did not choose before it logs or shows it.
 */
import { describe, expect, it } from 'vitest'
import { oneLine } from './one-line.ts'

describe('oneLine', () => {
  it('turnsEveryRunOfLineBreakingCharactersIntoOneSpace', () => {
    expect(oneLine('ops-bot\r\n#99 deploy\u2028x\u202e\ty\u0085z\u001b[31m', 100)).toBe(
      'ops-bot #99 deploy x y z [31m',
    )
  })

  it('keepsOrdinaryUnicodeText', () => {
    expect(oneLine('Клиент ✓ 客户端 🚀', 100)).toBe('Клиент ✓ 客户端 🚀')
  })

  it('cutsALongTextToTheBoundWithAnEllipsis', () => {
    const cut = oneLine('n'.repeat(600 * 1024), 128)
    expect(cut).toHaveLength(128)
    expect(cut.endsWith('n…')).toBe(true)
  })

  it('neverCutsASurrogatePairInHalf', () => {
    const cut = oneLine(`${'a'.repeat(8)}🚀🚀`, 10)
    expect(cut).toBe(`${'a'.repeat(8)}…`)
  })

  it('aTextOfOnlyControlCharactersIsEmpty', () => {
    expect(oneLine('\n\r\t', 10)).toBe('')
  })
})
