/**
 * @module skills-extension
 * The skills extension (`io.modelcontextprotocol/skills`): Agent Skills served over MCP. Each file
 * of each skill is a resource (`skill://<path>/<file>`, its SKILL.md listed with the skill's name
 * and description); `skills/list` lists every skill with the digest and size of each of its files,
 * a page never splitting one; `skills/get` returns one by the URI of its SKILL.md; and, unless
 * turned off, `resources/directory/read` lists a skill folder's children. Any client may call
 * them: the extension needs no declaration.
 */
import { TesseraError } from '@tessera/core'
import {
  clipped,
  type Extension,
  type ExtensionMethod,
  pageResult,
  paginate,
  requireScopes,
} from '@tessera/core/extension'
import { assertKnownOptions, type OptionNames, positiveInteger } from '@tessera/core/ports'
import { type JsonObject, SKILLS_EXTENSION } from '@tessera/core/protocol'
import { readSkill, type Skill, type SkillSource } from './skill.ts'
import { skillDirectories } from './skill-directories.ts'
import { skillEntry } from './skill-entries.ts'
import { serveSkillFiles } from './skill-resources.ts'

/** What `skillsExtension` serves, and how. */
export interface SkillsOptions {
  /** The skills, each checked now (see `SkillSource`); from a folder on Node with `loadSkills`. */
  skills: readonly SkillSource[]
  /** Serve `resources/directory/read` on the skills' folders and advertise it (default true). */
  directoryRead?: boolean
  /** How long clients may keep `skills/list` and `skills/get` results (default 300 000 ms). */
  ttlMs?: number
  /**
   * Scopes a caller must hold (all of them) to list, get or read the skills and their files; a
   * caller without them is refused with 403 and the step-up challenge. Default: none.
   */
  scopes?: readonly string[]
}

const OPTION_NAMES = {
  skills: true,
  directoryRead: true,
  ttlMs: true,
  scopes: true,
} as const satisfies OptionNames<SkillsOptions>

/**
 * The skills extension serving `options.skills`. Every skill is checked here: one that breaks a
 * rule of the Agent Skills format or of the extension throws a TypeError naming it and the rule.
 *
 * @example
 * ```ts
 * import { createServer } from '@tessera/core'
 * import { skillsExtension } from '@tessera/skills'
 *
 * const server = createServer({
 *   name: 'ops',
 *   version: '1.0.0',
 *   extensions: [
 *     skillsExtension({
 *       skills: [
 *         {
 *           files: {
 *             'SKILL.md': '---\nname: rollback\ndescription: Roll a service back safely\n---\n\n# Rollback\n',
 *           },
 *         },
 *       ],
 *     }),
 *   ],
 * })
 * ```
 */
export function skillsExtension(options: SkillsOptions): Extension {
  assertKnownOptions(options, OPTION_NAMES, 'skillsExtension', { required: true })
  if (!Array.isArray(options.skills)) throw new TypeError('skillsExtension needs skills (an array).')
  const ttlMs = positiveInteger(options.ttlMs ?? 300_000, 'skillsExtension: ttlMs')
  const scopes = options.scopes ?? []
  if (!Array.isArray(scopes) || scopes.some((scope) => typeof scope !== 'string' || scope === ''))
    throw new TypeError('skillsExtension: scopes must be an array of non-empty strings.')
  const skills = uniqueSkills(options.skills.map(readSkill))
  const byUri = new Map(skills.map((skill) => [skill.uri, skill]))
  const directoryRead = options.directoryRead !== false
  const cache = { ttlMs, cacheScope: 'public' }
  let entries: Promise<JsonObject[]> | undefined
  const listed = () => (entries ??= Promise.all(skills.map(skillEntry)))
  const methods: Record<string, ExtensionMethod> = {
    'skills/list': {
      run: async ({ params, pageSize, auth }) => {
        requireScopes(scopes, auth, 'Skills')
        return pageResult('skills', paginate('skills', await listed(), params.cursor, pageSize), cache)
      },
    },
    'skills/get': {
      run: async ({ params, auth }) => {
        requireScopes(scopes, auth, 'Skills')
        const skill = byUri.get(uriParam(params))
        if (skill === undefined) throw invalid(`no skill is served at '${clipped(String(params.uri))}'`)
        return { skill: (await listed())[skills.indexOf(skill)]!, ...cache }
      },
    },
  }
  if (directoryRead) methods['resources/directory/read'] = directoryMethod(skills, scopes)
  return {
    id: SKILLS_EXTENSION,
    settings: () => (skills.length === 0 ? undefined : directoryRead ? { directoryRead: true } : {}),
    methods,
    setup: (server) => serveSkillFiles(server, skills, scopes),
  }
}

function directoryMethod(skills: readonly Skill[], scopes: readonly string[]): ExtensionMethod {
  const directories = skillDirectories(skills)
  return {
    run: ({ params, pageSize, auth }) => {
      requireScopes(scopes, auth, 'Skills')
      const uri = uriParam(params).replace(/\/$/, '')
      const children = directories.get(uri)
      if (children === undefined) throw invalid(`'${clipped(uri)}' is not a folder of a skill served here`)
      return pageResult('resources', paginate(`directory ${uri}`, children, params.cursor, pageSize))
    },
  }
}

function uniqueSkills(skills: Skill[]): Skill[] {
  const seen = new Set<string>()
  for (const skill of skills) {
    if (seen.has(skill.uri))
      throw new TypeError(`Skill '${skill.path}': another skill is served at ${skill.uri}.`)
    seen.add(skill.uri)
  }
  return skills
}

function uriParam(params: JsonObject): string {
  if (typeof params.uri !== 'string') throw invalid('uri must be a string')
  return params.uri
}

function invalid(message: string): TesseraError {
  return new TesseraError('TESSERA_INVALID_PARAMS', `Invalid params: ${message}.`)
}
