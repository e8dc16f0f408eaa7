/** The probe server as a Worker: built once at module scope, served through the fetch face. */
import { createFetchHandler } from '@tessera/core/http'
import { createProbeServer, PROBE_HTTP_OPTIONS } from './probe-server.ts'

const mcp = createFetchHandler(createProbeServer(), PROBE_HTTP_OPTIONS)

export default { fetch: mcp }
