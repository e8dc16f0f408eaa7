/**
 * @module skill-directories
 * The folders of the skills served, for `resources/directory/read`: each skill's folder and every
 * folder inside it, with its direct children, files and folders (`inode/directory`), in name
 * order.
 */
import type { JsonObject } from '@tessera/core/protocol'
import type { Skill } from './skill.ts'

/** The media type a folder is listed with. */
export const DIRECTORY_TYPE = 'inode/directory'

/** Folder URI → its direct children, as `resources/directory/read` lists them. */
export function skillDirectories(skills: readonly Skill[]): ReadonlyMap<string, readonly JsonObject[]> {
  const children = new Map<string, Map<string, JsonObject>>()
  const folder = (uri: string) => {
    const found = children.get(uri) ?? new Map<string, JsonObject>()
    children.set(uri, found)
    return found
  }
  for (const skill of skills) {
    folder(skill.directory)
    for (const file of skill.files) {
      const segments = file.path.split('/')
      let parent = skill.directory
      for (const segment of segments.slice(0, -1)) {
        const uri = `${parent}/${segment}`
        folder(parent).set(segment, { uri, name: segment, mimeType: DIRECTORY_TYPE })
        folder(uri)
        parent = uri
      }
      const name = segments.at(-1)!
      folder(parent).set(name, { uri: file.uri, name, mimeType: file.mimeType, size: file.bytes.byteLength })
    }
  }
  return new Map(
    [...children].map(([uri, entries]) => [
      uri,
      [...entries.keys()].sort().map((name) => entries.get(name)!),
    ]),
  )
}
