/** The probe server as a Worker: built once at module scope, served through the fetch face. */
import { createFetchHandler } from '@tessera/core/http'
import { createProbeServer } from './probe-server.ts'

const mcp = createFetchHandler(createProbeServer())

export default { fetch: mcp }
