/**
 * @module uri-template
 * Matching URIs against RFC 6570 templates, the direction a server needs (the RFC itself only
 * defines expansion). Supports simple `{var}`, reserved `{+var}`, fragment `{#var}`, path segments
 * `{/a,b}` and the query forms `{?a,b}` and `{&c}`; anything else (`{.x}`, `{;x}`, `{x*}`,
 * `{x:3}`, stray braces) is refused at registration. A simple or path-segment variable never
 * matches a `/`, `.` or `..`, even percent-encoded, so a handler cannot be walked out of its tree.
 */

export interface UriTemplate {
  readonly template: string
  readonly variables: readonly string[]
  match(uri: string): Record<string, string> | undefined
}

type Group =
  | { kind: 'segment' | 'list' | 'reserved' | 'fragment'; names: string[] }
  | { kind: 'query'; names: string[] }

const VARNAME = /^[A-Za-z0-9_](?:\.?[A-Za-z0-9_])*$/

export function compileUriTemplate(template: string): UriTemplate {
  const groups: Group[] = []
  const variables: string[] = []
  let pattern = '^'
  let query: Extract<Group, { kind: 'query' }> | undefined
  let at = 0
  while (at < template.length) {
    const open = template.indexOf('{', at)
    const literal = template.slice(at, open === -1 ? template.length : open)
    if (literal.includes('}')) throw invalid(template)
    pattern += escapeRegExp(literal)
    if (open === -1) break
    const close = template.indexOf('}', open)
    if (close === -1) throw invalid(template)
    const { op, names } = parseExpression(template, template.slice(open + 1, close))
    variables.push(...names)
    if ((op === '?' || op === '&') && query) {
      query.names.push(...names)
    } else if (op === '?' || op === '&') {
      query = { kind: 'query', names }
      groups.push(query)
      pattern += `(?:\\${op}([^#]*))?`
    } else {
      pattern += fragmentFor(op, names, groups)
    }
    at = close + 1
  }
  const regex = new RegExp(`${pattern}$`)
  return {
    template,
    variables,
    match(uri) {
      const m = regex.exec(uri)
      return m ? collect(groups, m) : undefined
    },
  }
}

function parseExpression(template: string, body: string): { op: string; names: string[] } {
  const op = '+#/?&'.includes(body[0] ?? '') ? body[0]! : ''
  const names = body.slice(op.length).split(',')
  if (names.some((name) => !VARNAME.test(name))) throw invalid(template)
  return { op, names }
}

function fragmentFor(op: string, names: string[], groups: Group[]): string {
  switch (op) {
    case '+':
      groups.push({ kind: 'reserved', names })
      return '(.+?)'
    case '#':
      groups.push({ kind: 'fragment', names })
      return '(?:#(.+?))?'
    case '/':
      for (const name of names) groups.push({ kind: 'segment', names: [name] })
      return names.map(() => '/([^/?#]+)').join('')
    default:
      groups.push({ kind: names.length === 1 ? 'segment' : 'list', names })
      return '([^/?#]+)'
  }
}

function collect(groups: readonly Group[], m: RegExpExecArray): Record<string, string> | undefined {
  const out: Record<string, string> = {}
  let index = 1
  for (const group of groups) {
    const raw = m[index++]
    if (raw === undefined) continue
    if (group.kind === 'query') {
      readQuery(raw, group.names, out)
      continue
    }
    const parts = group.kind === 'list' || group.names.length > 1 ? raw.split(',') : [raw]
    for (let i = 0; i < group.names.length; i++) {
      const part = parts[i]
      if (part === undefined) continue
      const decoded = safeDecode(part)
      if (decoded === undefined) return undefined
      if ((group.kind === 'segment' || group.kind === 'list') && !isSafeSegment(decoded)) return undefined
      out[group.names[i]!] = decoded
    }
  }
  return out
}

function readQuery(raw: string, names: readonly string[], out: Record<string, string>): void {
  for (const pair of raw.split('&')) {
    const eq = pair.indexOf('=')
    const key = eq === -1 ? pair : pair.slice(0, eq)
    const value = eq === -1 ? '' : pair.slice(eq + 1)
    if (names.includes(key)) out[key] = safeDecode(value) ?? value
  }
}

/** One path segment: no slash once decoded, and not a dot segment. */
function isSafeSegment(value: string): boolean {
  return !value.includes('/') && !value.includes('\\') && value !== '.' && value !== '..'
}

function safeDecode(value: string): string | undefined {
  try {
    return decodeURIComponent(value)
  } catch {
    return undefined
  }
}

function invalid(template: string): TypeError {
  return new TypeError(`Invalid or unsupported URI template '${template}'.`)
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}
