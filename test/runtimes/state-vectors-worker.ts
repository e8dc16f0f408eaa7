/** Answers every request with the requestState test vectors this Worker's codec gets wrong, as JSON. */
import {
  checkStateVectors,
  type StateVectors,
} from '../../packages/core/src/security/request-state/codec-vectors.fixture.ts'
import vectors from '../../packages/core/src/security/request-state/codec-vectors.json' with { type: 'json' }

export default {
  fetch: async () => Response.json(await checkStateVectors(vectors as StateVectors)),
}
