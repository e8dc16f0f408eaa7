/**
 * @module json-position
 * Where `JSON.parse` gave up, as an editor's line and column (1-based). V8 names the offset in
 * its message ("… in JSON at position 18"); a text that ends too early fails at its end.
 */

export function jsonErrorPosition(text: string, error: unknown): { line: number; column: number } {
  const message = error instanceof Error ? error.message : ''
  const named = /at position (\d+)/.exec(message)
  const offset = named ? Math.min(Number(named[1]), text.length) : text.length
  let line = 1
  let lineStart = 0
  for (let i = 0; i < offset; i++) {
    if (text.charCodeAt(i) === 10) {
      line++
      lineStart = i + 1
    }
  }
  return { line, column: offset - lineStart + 1 }
}
