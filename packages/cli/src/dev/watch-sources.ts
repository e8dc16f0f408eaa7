/**
 * @module watch-sources
 * Calls back when a source file of the project changes: everything under the project root
 * (the nearest folder with a package.json above the entry), except dependencies and build
 * output. Bursts of events (an editor's save is several) come as one call.
 */
import { existsSync, watch } from 'node:fs'
import { dirname, join, sep } from 'node:path'

const SOURCE = /\.(?:[cm]?[jt]sx?|json)$/
const IGNORED = new Set(['node_modules', '.git', 'dist', '.tsbuild', 'coverage'])
const SETTLE_MS = 80

export function projectRoot(entry: string): string {
  for (let dir = dirname(entry); ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir
    if (dirname(dir) === dir) return dirname(entry)
  }
}

export function watchSources(root: string, onChange: (file: string) => void): () => void {
  let timer: NodeJS.Timeout | undefined
  const watcher = watch(root, { recursive: true }, (_event, file) => {
    if (file === null || !SOURCE.test(file)) return
    if (file.split(sep).some((part) => IGNORED.has(part))) return
    clearTimeout(timer)
    timer = setTimeout(() => onChange(file), SETTLE_MS)
  })
  return () => {
    clearTimeout(timer)
    watcher.close()
  }
}
