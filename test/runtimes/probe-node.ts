/** The probe server on Node, through `listen`. */
import { listen } from '@tessera/core/http'
import { createProbeServer } from './probe-server.ts'

const server = await listen(createProbeServer(), { port: Number(process.env.PORT) })
process.stderr.write(`probe server on ${server.url}\n`)
process.once('SIGTERM', () => {
  server.close().then(() => process.exit(0))
})
