/**
 * @module load-catalogue
 * Reads `ops.json` from disk and validates it (see `parse-catalogue.ts`). A malformed file stops
 * the server at start with the file, line and column of the fault (editor-clickable
 * `file:line:column`), because a catalogue that is silently half-read is worse than no server.
 */
import { readFileSync } from 'node:fs'
import type { Catalogue } from './catalogue.ts'
import { CatalogueError, parseCatalogue } from './parse-catalogue.ts'

export { CatalogueError, parseCatalogue } from './parse-catalogue.ts'

export function loadCatalogue(path: string): Catalogue {
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch (error) {
    throw new CatalogueError(`${path}: cannot read the catalogue: ${(error as Error).message}`, path)
  }
  return parseCatalogue(text, path)
}
