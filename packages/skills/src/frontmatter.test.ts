/**
 * @module frontmatter.test
 * The frontmatter a SKILL.md opens with, read as YAML 1.2's core schema into the JSON object a
 * client compares against the file: scalars keep the meaning the file gives them, and what is
 * not a YAML mapping is refused with a sentence that says why.
 */
import { describe, expect, it } from 'vitest'
import { readFrontmatter } from './frontmatter.ts'

const skill = (yaml: string) => `---\n${yaml}\n---\n\nBody.\n`

describe('readFrontmatter', () => {
  it('readsNestedMappingsListsAndTheCoreSchemasScalars', () => {
    expect(
      readFrontmatter(
        skill(
          'name: pdf\ndescription: "Fill: forms"\nversion: 2\nbeta: true\nowner: ~\nmetadata:\n  tags: [pdf, forms]\n  ratio: 0.5',
        ),
      ),
    ).toEqual({
      name: 'pdf',
      description: 'Fill: forms',
      version: 2,
      beta: true,
      owner: null,
      metadata: { tags: ['pdf', 'forms'], ratio: 0.5 },
    })
  })

  it('keepsADateAndAMergeKeyAsTheTextTheFileHolds', () => {
    // JSON carries no date: a Date read here would reach the client as another string.
    expect(readFrontmatter(skill('name: pdf\nupdated: 2026-07-28\nyes: no\n"<<": x'))).toEqual({
      name: 'pdf',
      updated: '2026-07-28',
      yes: 'no',
      '<<': 'x',
    })
  })

  it('readsAFileThatOpensWithAByteOrderMarkOrUsesCrlf', () => {
    expect(readFrontmatter('\ufeff---\r\nname: pdf\r\ndescription: d\r\n---\r\nBody.')).toEqual({
      name: 'pdf',
      description: 'd',
    })
  })

  it('refusesBrokenYamlWithTheFirstLineOfTheParsersReason', () => {
    const refusal = readFrontmatter(skill('name: [pdf'))
    expect(refusal).toMatch(/^its frontmatter is not YAML \(.+\)$/)
    expect(refusal).not.toContain('\n')
  })

  it('refusesAKeyWrittenTwice', () => {
    expect(readFrontmatter(skill('name: a\nname: b'))).toMatch(/^its frontmatter is not YAML \(/)
  })

  it('refusesFrontmatterThatIsNotAMapping', () => {
    expect(readFrontmatter(skill('- name\n- description'))).toBe('its frontmatter must be a YAML mapping')
    expect(readFrontmatter(skill('just text'))).toBe('its frontmatter must be a YAML mapping')
  })

  it('refusesAFileWithoutFrontmatter', () => {
    expect(readFrontmatter('# PDF\n\nBody.')).toBe(
      'SKILL.md must begin with YAML frontmatter between --- lines',
    )
  })
})
