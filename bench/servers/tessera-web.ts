/** Tessera's web-standard face over the bench app, for a runtime's own server (`serve-web.ts`). */
import { createFetchHandler } from '@tessera/core/http'
import { benchApp } from './tessera-app.ts'

export const handler = createFetchHandler(benchApp())
