/**
 * @module offer
 * What the server offers to try: `server/discover` says which of tools, resources (with their
 * templates), prompts and skills it has, and only those are listed, so a server without prompts is not
 * reported as refusing `prompts/list`. A request that brings no result is kept with its method,
 * for the page to say why the list is empty.
 */
import { SKILLS_EXTENSION } from '@tessera/core/protocol'
import type { ConsoleClient, RpcOutcome, Tool } from './mcp-client.ts'

export interface Resource {
  uri: string
  name?: string
  title?: string
}
export interface ResourceTemplate {
  uriTemplate: string
  name?: string
  title?: string
  description?: string
}
export interface Prompt {
  name: string
  description?: string
  arguments?: Array<{ name: string; description?: string; required?: boolean }>
}

/** An entry of `skills/list`: the URI of the skill's SKILL.md and its frontmatter. */
export interface Skill {
  uri: string
  frontmatter: { name?: string; description?: string }
}

export interface Offer {
  tools: Tool[]
  resources: Resource[]
  templates: ResourceTemplate[]
  prompts: Prompt[]
  /** The skills, when the server offers the skills extension. */
  skills: Skill[]
  /** The requests that brought no result, in the order they were made. */
  refused: Array<{ method: string; outcome: RpcOutcome }>
}

export const NOTHING_OFFERED: Offer = {
  tools: [],
  resources: [],
  templates: [],
  prompts: [],
  skills: [],
  refused: [],
}

export async function loadOffer(client: ConsoleClient): Promise<Offer> {
  const discovered = await client.request('server/discover')
  if (discovered.result === undefined || discovered.error !== undefined)
    return { ...NOTHING_OFFERED, refused: [{ method: 'server/discover', outcome: discovered }] }
  const capabilities = (discovered.result.capabilities ?? {}) as Record<string, unknown>
  const extensions = (capabilities.extensions ?? {}) as Record<string, unknown>
  const listed = async <T>(capability: string, method: string, field: string) => {
    const offered = capability === SKILLS_EXTENSION ? extensions[capability] : capabilities[capability]
    if (offered === undefined) return { method, items: [] as T[] }
    return { method, ...(await client.list<T>(method, field)) }
  }
  const lists = await Promise.all([
    listed<Tool>('tools', 'tools/list', 'tools'),
    listed<Resource>('resources', 'resources/list', 'resources'),
    listed<ResourceTemplate>('resources', 'resources/templates/list', 'resourceTemplates'),
    listed<Prompt>('prompts', 'prompts/list', 'prompts'),
    listed<Skill>(SKILLS_EXTENSION, 'skills/list', 'skills'),
  ])
  const refused = lists.flatMap(({ method, refused }) =>
    refused === undefined ? [] : [{ method, outcome: refused }],
  )
  return {
    tools: lists[0].items,
    resources: lists[1].items,
    templates: lists[2].items,
    prompts: lists[3].items,
    skills: lists[4].items,
    refused,
  }
}
