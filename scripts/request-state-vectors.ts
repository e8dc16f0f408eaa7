/**
 * Writes the requestState test vectors (`packages/core/src/security/request-state/codec-vectors.json`)
 * from this implementation of the codec. Run it only when the wire format changes on purpose:
 * every implementation, on every runtime, is checked against the file it writes.
 *
 *   node --import tsx scripts/request-state-vectors.ts
 */
import { writeFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import {
  checkStateVectors,
  makeStateVectors,
} from '../packages/core/src/security/request-state/codec-vectors.fixture.ts'

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const vectors = await makeStateVectors()
const wrong = await checkStateVectors(vectors)
if (wrong.length > 0) {
  console.error(`request-state-vectors: this implementation fails its own vectors:\n${wrong.join('\n')}`)
  process.exit(1)
}
const file = join(ROOT, 'packages/core/src/security/request-state/codec-vectors.json')
writeFileSync(file, `${JSON.stringify(vectors, null, 2)}\n`)
console.log(
  `request-state-vectors: wrote ${vectors.vectors.length} vectors to ${file.slice(ROOT.length + 1)}`,
)
