/**
 * @module runbook-skills
 * The runbooks of each service as a skill (`skill://runbooks/<service>/SKILL.md`), so an agent
 * that speaks the skills extension finds them without knowing this server's resources. A skill's
 * body is the very document `ops://runbooks/{service}` serves: one source, two ways to reach it.
 */
import type { SkillSource } from '@tessera/skills'
import type { Catalogue } from '../catalogue/catalogue.ts'
import type { ServiceEntry } from '../catalogue/catalogue-schema.ts'
import { runbooksMarkdown } from '../resources/runbooks-resource.ts'

/** Where the runbook skills sit under `skill://`. */
export const RUNBOOK_SKILLS_PATH = 'runbooks'

/** One skill per service of `catalogue`, named after the service. */
export function runbookSkills(catalogue: Catalogue): SkillSource[] {
  return catalogue.services().map((entry) => ({
    path: `${RUNBOOK_SKILLS_PATH}/${entry.id}`,
    files: { 'SKILL.md': runbookSkillMarkdown(entry) },
  }))
}

/** The SKILL.md of `entry`'s runbooks: frontmatter that says when to use it, then the runbooks. */
export function runbookSkillMarkdown(entry: ServiceEntry): string {
  const titles = entry.runbooks.map((runbook) => runbook.title).join('; ')
  // JSON strings are YAML scalars: a title with a colon or a quote stays one string.
  const frontmatter = [
    `name: ${entry.id}`,
    `description: ${JSON.stringify(`What to do when ${entry.name} misbehaves: ${titles}.`.slice(0, 1024))}`,
    'metadata:',
    `  service: ${JSON.stringify(entry.id)}`,
    `  owner: ${JSON.stringify(entry.owner.team)}`,
    `  tier: ${entry.tier}`,
  ]
  return `---\n${frontmatter.join('\n')}\n---\n\n${runbooksMarkdown(entry)}`
}
