/**
 * @module skills
 * The skills the conformance fixture serves, from memory (so the same fixture serves them on
 * every runtime): a skill with a reference file in a subfolder, and one at a nested path.
 */
import { type SkillSource, skillsExtension } from '@tessera/skills'

const PDF_PROCESSING = `---
name: pdf-processing
description: Extract, fill, and assemble PDF documents
license: Apache-2.0
metadata:
  author: tessera
  version: "1.0"
---

# PDF processing

Use this skill to read a PDF's text, fill its form fields, or merge several PDFs into one.
Before filling a form, read [the forms reference](references/FORMS.md).
`

const FORMS = `# Forms

List the form's fields first, then fill each one by its name.
`

const RELEASE_NOTES = `---
name: release-notes
description: Write release notes from merged changes
---

# Release notes

Group the merged changes by area and describe each in one line, user-visible changes first.
`

export const FIXTURE_SKILLS: readonly SkillSource[] = [
  { files: { 'SKILL.md': PDF_PROCESSING, 'references/FORMS.md': FORMS } },
  { path: 'engineering/release-notes', files: { 'SKILL.md': RELEASE_NOTES } },
]

/** The skills extension of the fixture, with `resources/directory/read`. */
export const fixtureSkills = () => skillsExtension({ skills: FIXTURE_SKILLS })
