/**
 * @module skill-entries
 * What `skills/list` and `skills/get` send for a skill: the URI of its SKILL.md, its frontmatter,
 * and every file with the SHA-256 digest and size of its bytes, so a client can verify each file
 * it reads. Digests are computed once, on first use, with WebCrypto (every runtime has it).
 */
import type { JsonObject } from '@tessera/core/protocol'
import type { Skill } from './skill.ts'

/** The entry of `skill`, its digests computed. */
export async function skillEntry(skill: Skill): Promise<JsonObject> {
  const resources = await Promise.all(
    skill.files.map(async (file) => ({
      uri: file.uri,
      digest: `sha256:${hex(await crypto.subtle.digest('SHA-256', file.bytes))}`,
      size: file.bytes.byteLength,
    })),
  )
  return { uri: skill.uri, frontmatter: skill.frontmatter as JsonObject, resources }
}

function hex(buffer: ArrayBuffer): string {
  return Array.from(new Uint8Array(buffer), (byte) => byte.toString(16).padStart(2, '0')).join('')
}
