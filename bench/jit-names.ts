/**
 * Names V8's generated code in callgrind's dumps. Callgrind knows functions by the symbols of the
 * binaries it runs, and the code V8 compiles at run time has none: every JavaScript function shows
 * as a bare address. Node started with `--perf-basic-prof` writes `/tmp/perf-<pid>.map`, one line
 * per code object it creates (start, size, name); this rewrites each address callgrind names to
 * the function whose code holds it, marked as V8 marks its tiers (`~` interpreted, `^` baseline,
 * `+` Maglev, `*` optimized), so `callgrind_annotate` shows where a request's instructions went
 * function by function.
 */
import { readFileSync, writeFileSync } from 'node:fs'

interface CodeObject {
  start: number
  end: number
  name: string
}

/** The perf map's code objects by start; a later object at the same start replaces the earlier. */
function readPerfMap(file: string): CodeObject[] {
  const byStart = new Map<number, CodeObject>()
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const match = /^([0-9a-f]+) ([0-9a-f]+) (.+)$/.exec(line)
    if (match === null) continue
    const start = Number.parseInt(match[1]!, 16)
    const name = match[3]!
      .replace(/^JS:/, '')
      .replace(/file:\/\/\/\S*?\/(packages|bench|node_modules)\//, '$1/')
    byStart.set(start, {
      start,
      end: start + Number.parseInt(match[2]!, 16),
      name: name.replace(/\s+/g, '_'),
    })
  }
  return [...byStart.values()].sort((a, b) => a.start - b.start)
}

function codeAt(objects: CodeObject[], address: number): CodeObject | undefined {
  let low = 0
  let high = objects.length - 1
  while (low <= high) {
    const middle = (low + high) >> 1
    if (objects[middle]!.start <= address) low = middle + 1
    else high = middle - 1
  }
  const found = objects[high]
  return found !== undefined && address < found.end ? found : undefined
}

/** Rewrites each of `dumps` in place with the names in `perfMap`, read once. */
export function nameJitCode(dumps: readonly string[], perfMap: string): void {
  const objects = readPerfMap(perfMap)
  for (const dump of dumps) {
    // Callgrind names a function once, with its number, and by the number alone afterwards.
    const text = readFileSync(dump, 'utf8').replace(/^(c?fn=\(\d+\)) 0x([0-9a-f]+)$/gm, (line, head, hex) => {
      const code = codeAt(objects, Number.parseInt(hex, 16))
      return code === undefined ? line : `${head} ${code.name} [0x${hex}]`
    })
    writeFileSync(dump, text)
  }
}
