import { listen } from '@tessera/core/http'
import { buildServer } from './server.js'

const app = buildServer({
  async restart(service) {
    console.error(`restarting ${service}`)
  },
})

const running = await listen(app, { port: Number(process.env.PORT ?? 3000) })
console.error(`MCP server listening on ${running.url}`)
