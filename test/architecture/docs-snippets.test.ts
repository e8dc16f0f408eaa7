/**
 * @module docs-snippets.test
 * The get-started guide shows the project `npm create tessera` writes, its server and its test,
 * byte for byte, so the code a newcomer copies is code that the generator test builds and runs.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ROOT } from './import-scan.ts'

const guide = readFileSync(join(ROOT, 'docs/get-started.md'), 'utf8')
const template = (file: string) => readFileSync(join(ROOT, 'packages/create-tessera/template', file), 'utf8')

/** The first TypeScript block after `heading`. */
function blockAfter(heading: string): string | undefined {
  return /```ts\n([\s\S]*?)```/.exec(guide.slice(guide.indexOf(heading)))?.[1]
}

describe('get-started snippets', () => {
  it('showsTheGeneratedServerExactly', () => {
    expect(blockAfter('## Asking before acting')).toBe(template('src/server.ts'))
  })

  it('showsTheGeneratedTestExactly', () => {
    expect(blockAfter('## Testing a tool in process')).toBe(template('test/server.test.ts'))
  })
})
