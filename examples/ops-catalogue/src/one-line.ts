/**
 * @module one-line
 * Text chosen outside this server (a token's subject, a client's name, an argument echoed back),
 * made fit for one line of the deployment log or of a result a model reads. The history is shown
 * one entry per line, so a line break inside a field would let whoever chose it write a line that
 * reads as an entry of its own; and a field of any size would be stored and shown at that size.
 */
import { LINE_BREAKING } from '@tessera/core/protocol'

/** Every run of line-breaking characters. */
const RUNS = new RegExp(`${LINE_BREAKING.source}+`, 'g')

/**
 * `text` on one line, at most `max` characters: each run of control characters becomes one space,
 * the ends are trimmed, and a longer text is cut and ends with `…` (never inside a surrogate pair).
 */
export function oneLine(text: string, max: number): string {
  const flat = text.replace(RUNS, ' ').trim()
  if (flat.length <= max) return flat
  let cut = flat.slice(0, Math.max(0, max - 1))
  if (/[\ud800-\udbff]$/.test(cut)) cut = cut.slice(0, -1)
  return `${cut}…`
}
