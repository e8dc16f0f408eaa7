/**
 * Prints, as JSON, the cases of the shared JSON Schema suite that the engine this runtime loads
 * gets wrong (none, when it gives every verdict). Run by `runtimes.test.ts` on Node, Bun and Deno.
 */
import { platformVerdictMismatches } from '../../packages/core/src/schema/raw-schema-verdicts.fixture.ts'

console.log(JSON.stringify(platformVerdictMismatches()))
