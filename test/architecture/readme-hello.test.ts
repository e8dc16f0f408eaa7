/**
 * @module readme-hello.test
 * The hello-world server in README.md is the whole of examples/hello/src/main.ts, byte for byte,
 * so the first code a newcomer reads is code that typechecks, lints and runs.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ROOT } from './import-scan.ts'

describe('readme hello', () => {
  it('showsExamplesHelloMainExactly', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8')
    const section = readme.slice(readme.indexOf('## Hello world'))
    const block = /```ts\n([\s\S]*?)```/.exec(section)?.[1]
    expect(block).toBe(readFileSync(join(ROOT, 'examples/hello/src/main.ts'), 'utf8'))
  })
})
