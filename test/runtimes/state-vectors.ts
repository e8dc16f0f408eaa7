/**
 * Prints, as JSON, the requestState test vectors this runtime's codec gets wrong (none, when it
 * opens every accepted state and refuses every other for its reason). Run by
 * `runtimes.test.ts` on Node, Bun and Deno.
 */
import { readFileSync } from 'node:fs'
import { checkStateVectors } from '../../packages/core/src/security/request-state/codec-vectors.fixture.ts'

const file = new URL('../../packages/core/src/security/request-state/codec-vectors.json', import.meta.url)
console.log(JSON.stringify(await checkStateVectors(JSON.parse(readFileSync(file, 'utf8')))))
