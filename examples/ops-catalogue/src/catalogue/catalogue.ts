/**
 * @module catalogue
 * The loaded catalogue: what does not change while the server runs (owners, tiers, health
 * snapshot, runbooks). What does change, the deployments, lives in the deployment log.
 */
import type { CatalogueFile, ServiceEntry } from './catalogue-schema.ts'

export class Catalogue {
  readonly name: string
  /** Where the catalogue was read from, for logs. */
  readonly source: string
  private readonly byId: ReadonlyMap<string, ServiceEntry>

  constructor(file: CatalogueFile, source: string) {
    this.name = file.name
    this.source = source
    this.byId = new Map(file.services.map((s) => [s.id, s]))
  }

  get(id: string): ServiceEntry | undefined {
    return this.byId.get(id)
  }

  ids(): string[] {
    return [...this.byId.keys()]
  }

  services(): ServiceEntry[] {
    return [...this.byId.values()]
  }

  /** Service ids for completion: prefix matches first, then the ids that merely contain the text. */
  complete(value: string): string[] {
    const needle = value.toLowerCase()
    const ids = this.ids()
    const prefix = ids.filter((id) => id.startsWith(needle))
    const inside = ids.filter((id) => !id.startsWith(needle) && id.includes(needle))
    return [...prefix, ...inside]
  }
}
