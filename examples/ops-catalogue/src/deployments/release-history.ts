/**
 * @module release-history
 * What a history means: the current version is the last entry, and the versions a service can
 * roll back to are the releases that came before the current version was first released. A
 * version that came after it (the one just rolled back from, say) is a roll forward, not back.
 */
import type { Deployment } from './deployment-log.ts'

/** The most versions an elicitation offers: a form with a long enum helps nobody. */
export const MAX_OFFERED_VERSIONS = 20

export function headOf(history: readonly Deployment[]): Deployment | undefined {
  return history.at(-1)
}

/** Earlier releases, newest first, without duplicates. */
export function earlierVersions(history: readonly Deployment[]): string[] {
  const head = headOf(history)
  if (head === undefined) return []
  const firstRelease = history.findIndex((d) => d.kind === 'deploy' && d.version === head.version)
  const cut = firstRelease === -1 ? history.length - 1 : firstRelease
  const seen = new Set<string>([head.version])
  const versions: string[] = []
  for (let i = cut - 1; i >= 0; i--) {
    const d = history[i]!
    if (d.kind !== 'deploy' || seen.has(d.version)) continue
    seen.add(d.version)
    versions.push(d.version)
  }
  return versions.slice(0, MAX_OFFERED_VERSIONS)
}
