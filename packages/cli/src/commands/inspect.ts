/**
 * @module inspect
 * `tessera inspect <url>` (or `--stdio "<command>"`): what a server offers (tools, resources,
 * templates, prompts, skills and the views its tools are shown with), for reading, or as one
 * JSON document with `--json`.
 */
import { SKILLS_EXTENSION } from '@tessera/core/protocol'
import { isObject } from '../client/json-rpc.ts'
import { type Offer, renderOffer } from '../terminal/render-offer.ts'
import { ExitCode } from './exit-codes.ts'
import { connect, listAll, type TargetOptions } from './target.ts'

/** Resolves with 0 once the offer is printed; rejects with why it could not be read. */
export async function inspect(
  url: string | undefined,
  options: TargetOptions & { json?: boolean },
): Promise<number> {
  const session = await connect(url, options)
  try {
    const caps = session.server.capabilities
    const has = (name: string) => isObject(caps[name])
    const extensions = isObject(caps.extensions) ? caps.extensions : {}
    const offer: Offer = {
      server: session.server,
      tools: has('tools') ? await listAll(session, 'tools/list', 'tools') : [],
      resources: has('resources') ? await listAll(session, 'resources/list', 'resources') : [],
      templates: has('resources')
        ? await listAll(session, 'resources/templates/list', 'resourceTemplates')
        : [],
      prompts: has('prompts') ? await listAll(session, 'prompts/list', 'prompts') : [],
      skills: isObject(extensions[SKILLS_EXTENSION]) ? await listAll(session, 'skills/list', 'skills') : [],
    }
    process.stdout.write(`${options.json ? JSON.stringify(offer, null, 2) : renderOffer(offer)}\n`)
    return ExitCode.ok
  } finally {
    await session.close()
  }
}
