/** The probe server on Node, through `listen`. */
import { listen } from '@tessera/core/http'
import { createProbeServer, PROBE_HTTP_OPTIONS } from './probe-server.ts'

const server = await listen(createProbeServer(), { ...PROBE_HTTP_OPTIONS, port: Number(process.env.PORT) })
process.stderr.write(`probe server on ${server.url}\n`)
process.once('SIGTERM', () => {
  server.close().then(() => process.exit(0))
})
