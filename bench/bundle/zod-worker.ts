/**
 * @module zod-worker
 * A Worker that loads zod and checks one object with it, and nothing else: the part of a hello
 * server's first request that is the application's own zod, whichever SDK serves it.
 */
import { z } from 'zod'

const input = z.object({ name: z.string() })

export default { fetch: () => Response.json(input.parse({ name: 'Ada' })) }
