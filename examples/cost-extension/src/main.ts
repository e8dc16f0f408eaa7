import { listen } from '@tessera/core/http'
import { createMeteredServer } from './server.ts'

const { url } = await listen(createMeteredServer(), { port: Number(process.env.PORT ?? 3000) })
console.error(`listening on ${url}`)
