/** Answers every request with the cases of the shared JSON Schema suite this Worker's engine gets wrong, as JSON. */
import { platformVerdictMismatches } from '../../packages/core/src/schema/raw-schema-verdicts.fixture.ts'

export default {
  fetch: () => Response.json(platformVerdictMismatches()),
}
