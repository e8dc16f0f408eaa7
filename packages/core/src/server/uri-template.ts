/**
 * @module uri-template
 * Matching URIs against RFC 6570 templates, the direction a server needs (the RFC itself only
 * defines expansion). Supports simple `{var}`, reserved `{+var}`, fragment `{#var}`, path
 * segments `{/var}` and query forms `{?a,b}` / `{&a}`; a simple variable never spans a `/`.
 */

export interface UriTemplate {
  readonly template: string
  readonly variables: readonly string[]
  match(uri: string): Record<string, string> | undefined
}

const EXPRESSION = /\{([+#/?&]?)([A-Za-z0-9_.%,]+)\}/g

export function compileUriTemplate(template: string): UriTemplate {
  const variables: string[] = []
  let pattern = '^'
  let last = 0
  const groups: Array<{ names: string[]; query: boolean }> = []
  for (const m of template.matchAll(EXPRESSION)) {
    pattern += escapeRegExp(template.slice(last, m.index))
    const [, op = '', list = ''] = m
    const names = list.split(',')
    variables.push(...names)
    pattern += fragmentFor(op, names.length)
    groups.push({ names, query: op === '?' || op === '&' })
    last = m.index + m[0].length
  }
  if (/[{}]/.test(template.slice(last))) throw new TypeError(`Invalid URI template '${template}'.`)
  pattern += `${escapeRegExp(template.slice(last))}$`
  const regex = new RegExp(pattern)
  return {
    template,
    variables,
    match(uri) {
      const m = regex.exec(uri)
      if (!m) return undefined
      return collect(groups, m)
    },
  }
}

function fragmentFor(op: string, count: number): string {
  switch (op) {
    case '+':
      return '(.+?)'
    case '#':
      return '(?:#(.+?))?'
    case '/':
      return '/([^/?#]+)'
    case '?':
    case '&':
      return `(?:[?&]([^#]*))?`
    default:
      return count === 1 ? '([^/?#]+)' : `([^/?#]+)`
  }
}

function collect(
  groups: Array<{ names: string[]; query: boolean }>,
  m: RegExpExecArray,
): Record<string, string> | undefined {
  const out: Record<string, string> = {}
  let index = 1
  for (const group of groups) {
    const raw = m[index++]
    if (raw === undefined) continue
    if (group.query) {
      for (const pair of raw.split('&')) {
        const [k = '', v = ''] = pair.split('=')
        if (group.names.includes(k)) out[k] = safeDecode(v) ?? v
      }
      continue
    }
    if (group.names.length === 1) {
      const decoded = safeDecode(raw)
      if (decoded === undefined) return undefined
      out[group.names[0]!] = decoded
    } else {
      const parts = raw.split(',')
      group.names.forEach((name, i) => {
        if (parts[i] !== undefined) out[name] = safeDecode(parts[i]!) ?? parts[i]!
      })
    }
  }
  return out
}

function safeDecode(value: string): string | undefined {
  try {
    return decodeURIComponent(value)
  } catch {
    return undefined
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}
