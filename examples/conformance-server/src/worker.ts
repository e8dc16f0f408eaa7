/**
 * @module worker
 * The conformance fixture as a Cloudflare Worker: built once at module scope and served through
 * the web-standard face (`npm run conformance -- --runtime workerd` bundles it and runs it on
 * workerd).
 */
import { createFetchHandler } from '@tessera/core/http'
import { createConformanceServer } from './conformance-server.ts'

const mcp = createFetchHandler(createConformanceServer())

export default { fetch: mcp }
