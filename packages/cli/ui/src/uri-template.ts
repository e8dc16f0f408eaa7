/**
 * @module uri-template
 * Filling in a resource template (RFC 6570 expansion, levels 1 to 3): simple `{var}`, reserved
 * `{+var}`, fragment `{#var}`, label `{.var}`, path segments `{/a,b}`, path parameters `{;a}` and
 * the query forms `{?a,b}` and `{&c}`. That covers every form the server's matcher accepts. The
 * level 4 modifiers (`{x*}`, `{x:3}`) have no field a person could fill and are refused with the
 * expression named, so the page says why it offers no form.
 */

export type TemplateOperator = '' | '+' | '#' | '.' | '/' | ';' | '?' | '&'

export interface TemplateVariable {
  name: string
  operator: TemplateOperator
}

interface OperatorRule {
  first: string
  separator: string
  /** `name=value` pairs (path parameters and queries) rather than bare values. */
  named: boolean
  /** What follows the name of an empty value: `;x`, but `?x=`. */
  ifEmpty: string
  /** Reserved characters and percent-encoded triplets pass through unchanged. */
  reserved: boolean
}

// RFC 6570, appendix A.
const RULES: Record<TemplateOperator, OperatorRule> = {
  '': { first: '', separator: ',', named: false, ifEmpty: '', reserved: false },
  '+': { first: '', separator: ',', named: false, ifEmpty: '', reserved: true },
  '#': { first: '#', separator: ',', named: false, ifEmpty: '', reserved: true },
  '.': { first: '.', separator: '.', named: false, ifEmpty: '', reserved: false },
  '/': { first: '/', separator: '/', named: false, ifEmpty: '', reserved: false },
  ';': { first: ';', separator: ';', named: true, ifEmpty: '', reserved: false },
  '?': { first: '?', separator: '&', named: true, ifEmpty: '=', reserved: false },
  '&': { first: '&', separator: '&', named: true, ifEmpty: '=', reserved: false },
}

const VARNAME = /^[A-Za-z0-9_](?:\.?[A-Za-z0-9_])*$/
const UNRESERVED = /[A-Za-z0-9\-._~]/
const RESERVED = /[:/?#[\]@!$&'()*+,;=]/

type Part = string | { operator: TemplateOperator; names: string[] }

/** The template's literal text and expressions, in order; a TypeError names what is malformed. */
function parse(template: string): Part[] {
  const parts: Part[] = []
  let at = 0
  while (at < template.length) {
    const open = template.indexOf('{', at)
    const literal = template.slice(at, open === -1 ? template.length : open)
    if (literal.includes('}')) throw new TypeError(`'${template}' has a '}' that closes nothing.`)
    if (literal !== '') parts.push(literal)
    if (open === -1) break
    const close = template.indexOf('}', open)
    if (close === -1) throw new TypeError(`'${template}' has a '{' that is never closed.`)
    const body = template.slice(open + 1, close)
    const operator = (body[0] !== undefined && body[0] in RULES ? body[0] : '') as TemplateOperator
    const names = body.slice(operator.length).split(',')
    for (const name of names) {
      if (/[*:]/.test(name))
        throw new TypeError(`'${template}': {${body}} uses a modifier (* or :) the console cannot fill in.`)
      if (!VARNAME.test(name)) throw new TypeError(`'${template}': {${body}} is not a variable name.`)
    }
    parts.push({ operator, names })
    at = close + 1
  }
  return parts
}

/** The variables a person fills in, in the order the template names them (each once). */
export function templateVariables(template: string): TemplateVariable[] {
  const seen = new Map<string, TemplateVariable>()
  for (const part of parse(template)) {
    if (typeof part === 'string') continue
    for (const name of part.names) if (!seen.has(name)) seen.set(name, { name, operator: part.operator })
  }
  return [...seen.values()]
}

/** The URI `template` names with `values`; a variable without a value is left out, as RFC 6570 says. */
export function expandTemplate(
  template: string,
  values: Readonly<Record<string, string | undefined>>,
): string {
  let uri = ''
  for (const part of parse(template)) {
    if (typeof part === 'string') {
      uri += encode(part, true)
      continue
    }
    const rule = RULES[part.operator]
    const pieces: string[] = []
    for (const name of part.names) {
      const value = values[name]
      if (value === undefined) continue
      const encoded = encode(value, rule.reserved)
      if (!rule.named) pieces.push(encoded)
      else pieces.push(value === '' ? `${name}${rule.ifEmpty}` : `${name}=${encoded}`)
    }
    if (pieces.length > 0) uri += rule.first + pieces.join(rule.separator)
  }
  return uri
}

function encode(text: string, reserved: boolean): string {
  let out = ''
  for (let i = 0; i < text.length; ) {
    const char = String.fromCodePoint(text.codePointAt(i)!)
    i += char.length
    if (UNRESERVED.test(char) || (reserved && RESERVED.test(char))) out += char
    else if (reserved && char === '%' && /^[0-9A-Fa-f]{2}$/.test(text.slice(i, i + 2))) out += char
    else out += percentEncoded(char)
  }
  return out
}

function percentEncoded(char: string): string {
  return Array.from(
    new TextEncoder().encode(char),
    (byte) => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`,
  ).join('')
}
