/**
 * @module one-line
 * Text chosen outside this server (a token's subject, a client's name, an argument echoed back),
 * made fit for one line of the deployment log or of a result a model reads. The history is shown
 * one entry per line, so a line break inside a field would let whoever chose it write a line that
 * reads as an entry of its own; and a field of any size would be stored and shown at that size.
 */

// C0 and C1 controls and DEL, the Unicode line and paragraph separators, and the bidirectional
// embeddings, overrides and isolates (which reorder what a reader sees).
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is replaced
const LINE_BREAKING = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]+/g

/**
 * `text` on one line, at most `max` characters: each run of control characters becomes one space,
 * the ends are trimmed, and a longer text is cut and ends with `…` (never inside a surrogate pair).
 */
export function oneLine(text: string, max: number): string {
  const flat = text.replace(LINE_BREAKING, ' ').trim()
  if (flat.length <= max) return flat
  let cut = flat.slice(0, Math.max(0, max - 1))
  if (/[\ud800-\udbff]$/.test(cut)) cut = cut.slice(0, -1)
  return `${cut}…`
}
