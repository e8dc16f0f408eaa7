/**
 * @module line-breaking
 * The characters that break or disguise a line of text: C0 and C1 controls and DEL, the Unicode
 * line and paragraph separators, and the bidirectional embeddings, overrides and isolates (which
 * reorder what a reader sees). Text a peer chose is refused (a clientInfo), flattened (a log
 * line) or escaped (a terminal) wherever one of them would let it pass for more than one line,
 * and every such place uses this one class.
 */

/** Matches one such character; no `g` flag, so `test` keeps no state. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it matches
export const LINE_BREAKING = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/
