/**
 * @module @tessera/skills
 * The skills extension of MCP (`io.modelcontextprotocol/skills`) for Tessera servers: Agent Skills
 * given in memory, on every runtime. `@tessera/skills/node` reads them from a folder.
 */

export { SKILLS_EXTENSION } from '@tessera/core/protocol'
export {
  MAX_SKILL_BYTES,
  MAX_SKILL_FILES,
  type SkillSource,
} from './skill.ts'
export { type SkillsOptions, skillsExtension } from './skills-extension.ts'
