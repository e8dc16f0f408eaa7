/**
 * @module parse-catalogue
 * Validates the text of `ops.json`, wherever it was read from (a file on Node, the Worker's bundle):
 * a fault is a `CatalogueError` with the file, line and column where JSON itself is malformed, and
 * the first issues of the schema otherwise.
 */
import type { z } from 'zod'
import { Catalogue } from './catalogue.ts'
import { catalogueFile } from './catalogue-schema.ts'
import { jsonErrorPosition } from './json-position.ts'

export class CatalogueError extends Error {
  override readonly name = 'CatalogueError'

  constructor(
    message: string,
    readonly file: string,
    readonly line?: number,
    readonly column?: number,
  ) {
    super(message)
  }
}

/** Parses catalogue text; `source` names the file in errors. */
export function parseCatalogue(text: string, source: string): Catalogue {
  let raw: unknown
  // A BOM is legal in a UTF-8 file but not in JSON; editors on some platforms add one.
  const json = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text
  try {
    raw = JSON.parse(json)
  } catch (error) {
    const at = jsonErrorPosition(json, error)
    const reason = (error as Error).message.replace(/ in JSON at position \d+.*$/s, '')
    throw new CatalogueError(
      `${source}:${at.line}:${at.column}: malformed JSON (${reason})`,
      source,
      at.line,
      at.column,
    )
  }
  const parsed = catalogueFile.safeParse(raw)
  if (!parsed.success)
    throw new CatalogueError(`${source}: invalid catalogue: ${describeIssues(parsed.error)}`, source)
  return new Catalogue(parsed.data, source)
}

function describeIssues(error: z.ZodError): string {
  const shown = error.issues.slice(0, 5).map((issue) => `${jsonPath(issue.path)}: ${issue.message}`)
  const more = error.issues.length - shown.length
  return more > 0 ? `${shown.join('; ')}; and ${more} more` : shown.join('; ')
}

function jsonPath(path: ReadonlyArray<PropertyKey>): string {
  if (path.length === 0) return '(root)'
  return path.map((p, i) => (typeof p === 'number' ? `[${p}]` : `${i === 0 ? '' : '.'}${String(p)}`)).join('')
}
