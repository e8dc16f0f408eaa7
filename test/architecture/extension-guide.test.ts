/**
 * @module extension-guide.test
 * The worked example of the extensions guide is the whole of examples/cost-extension/src/cost.ts,
 * byte for byte: the extension a third party copies is the one its tests run.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ROOT } from './import-scan.ts'
import { blockUnder } from './markdown-code.ts'

describe('extension guide', () => {
  it('showsTheCostExtensionExactly', () => {
    const file = 'docs/guides/extensions.md'
    const block = blockUnder(file, readFileSync(join(ROOT, file), 'utf8'), '## The worked example')
    expect(block.code).toBe(readFileSync(join(ROOT, 'examples/cost-extension/src/cost.ts'), 'utf8'))
  })
})
