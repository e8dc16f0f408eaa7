/**
 * @module skill-resources
 * Every file of every skill as a resource of the server, read with `resources/read`: a SKILL.md
 * listed under the skill's name and description as `text/markdown`, other files under their
 * path; text as text, anything else as base64.
 */
import type { McpServer } from '@tessera/core'
import type { Skill, SkillFile } from './skill.ts'

/** Registers the files of `skills` on `server`. */
export function serveSkillFiles(
  server: McpServer,
  skills: readonly Skill[],
  scopes: readonly string[],
): void {
  for (const skill of skills) {
    for (const file of skill.files) {
      const manifest = file.path === 'SKILL.md'
      server.resource(
        file.uri,
        {
          name: manifest ? skill.name : `${skill.name}/${file.path}`,
          ...(manifest ? { description: skill.frontmatter.description as string } : {}),
          mimeType: file.mimeType,
          size: file.bytes.byteLength,
          scopes,
        },
        (uri) => ({ contents: [contentOf(uri, file)] }),
      )
    }
  }
}

function contentOf(uri: string, file: SkillFile) {
  if (file.text !== undefined) return { uri, mimeType: file.mimeType, text: file.text }
  return { uri, mimeType: file.mimeType, blob: base64(file.bytes) }
}

function base64(bytes: Uint8Array): string {
  let binary = ''
  for (let i = 0; i < bytes.length; i += 0x8000)
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000))
  return btoa(binary)
}
