/** The command-line options every benchmark reads alike. */

/** `a, b,,c` as `['a', 'b', 'c']`: a list option's items, trimmed, empty ones dropped. */
export function commaList(value: string): string[] {
  return value
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean)
}
