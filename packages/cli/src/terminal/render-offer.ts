/**
 * @module render-offer
 * What a server offers, laid out for reading: who it is and which era it speaks, its
 * instructions, then its tools (each with its input fields), resources, templates and prompts.
 */
import { styleText } from 'node:util'
import { VIEW_MIME_TYPE } from '@tessera/core/protocol'
import { isObject, type JsonObject } from '../client/json-rpc.ts'
import type { ServerSummary } from '../client/session.ts'

export interface Offer {
  server: ServerSummary
  tools: JsonObject[]
  resources: JsonObject[]
  templates: JsonObject[]
  prompts: JsonObject[]
  /** The entries of `skills/list`, when the server offers the skills extension. */
  skills: JsonObject[]
}

const color = process.stdout.isTTY && process.env.NO_COLOR === undefined
const bold = (text: string) => (color ? styleText('bold', text) : text)
const dim = (text: string) => (color ? styleText('dim', text) : text)

export function renderOffer(offer: Offer): string {
  const { server } = offer
  const info = server.serverInfo
  const era = server.era === 'modern' ? 'stateless' : 'session'
  const lines = [
    `${bold(info?.title ?? info?.name ?? 'MCP server')} ${info?.version ?? ''}`.trimEnd(),
    dim(`protocol ${server.protocolVersion} (${era})`),
  ]
  if (server.instructions) lines.push('', server.instructions)
  section(lines, 'Tools', offer.tools, (tool) => [
    `${bold(String(tool.name))}${tool.title ? ` — ${String(tool.title)}` : ''}${hints(tool)}`,
    ...indent(String(tool.description ?? ''), 4),
    ...fields(isObject(tool.inputSchema) ? tool.inputSchema : {}),
    ...viewOf(tool),
  ])
  section(lines, 'Resources', offer.resources, (r) => [
    `${bold(String(r.uri))}  ${String(r.name ?? '')}${r.mimeType ? dim(` ${String(r.mimeType)}`) : ''}`,
    ...indent(String(r.description ?? ''), 4),
  ])
  section(lines, 'Resource templates', offer.templates, (t) => [
    `${bold(String(t.uriTemplate))}  ${String(t.name ?? '')}`,
    ...indent(String(t.description ?? ''), 4),
  ])
  section(lines, 'Skills', offer.skills, (skill) => {
    const front = isObject(skill.frontmatter) ? skill.frontmatter : {}
    const files = Array.isArray(skill.resources)
      ? `${skill.resources.length} files`
      : 'files listed on demand'
    return [
      `${bold(String(front.name ?? skill.uri))}  ${dim(`${String(skill.uri)}, ${files}`)}`,
      ...indent(String(front.description ?? ''), 4),
    ]
  })
  section(
    lines,
    'Views',
    offer.resources.filter((r) => r.mimeType === VIEW_MIME_TYPE),
    (view) => [
      `${bold(String(view.uri))}  ${String(view.name ?? '')}`,
      ...indent(String(view.description ?? ''), 4),
    ],
  )
  section(lines, 'Prompts', offer.prompts, (p) => [
    `${bold(String(p.name))}${p.description ? ` — ${String(p.description)}` : ''}`,
    ...(Array.isArray(p.arguments) ? p.arguments.filter(isObject) : []).map(
      (a) =>
        `    ${String(a.name)}${a.required ? '' : dim(' (optional)')}${a.description ? `  ${String(a.description)}` : ''}`,
    ),
  ])
  return lines.join('\n')
}

function section(
  lines: string[],
  title: string,
  items: JsonObject[],
  render: (item: JsonObject) => string[],
): void {
  lines.push('', bold(`${title} (${items.length})`))
  if (items.length === 0) lines.push(dim('  none'))
  for (const item of items) lines.push(...render(item).map((line) => `  ${line}`))
}

/** The line naming the view a tool is shown with (MCP Apps), and who may call it. */
function viewOf(tool: JsonObject): string[] {
  const ui = isObject(tool._meta) && isObject(tool._meta.ui) ? tool._meta.ui : undefined
  if (typeof ui?.resourceUri !== 'string') return []
  const appOnly = Array.isArray(ui.visibility) && !ui.visibility.includes('model')
  return [dim(`    view: ${ui.resourceUri}${appOnly ? ' (called by the view only)' : ''}`)]
}

function hints(tool: JsonObject): string {
  const a = isObject(tool.annotations) ? tool.annotations : {}
  const marks = [
    a.readOnlyHint && 'read-only',
    a.destructiveHint && 'destructive',
    a.idempotentHint && 'idempotent',
  ]
  const shown = marks.filter(Boolean)
  return shown.length > 0 ? dim(` [${shown.join(', ')}]`) : ''
}

/** One line per input field: name, type (or choices), required, description. */
function fields(schema: JsonObject): string[] {
  const properties = isObject(schema.properties) ? schema.properties : {}
  const required = new Set(Array.isArray(schema.required) ? schema.required.map(String) : [])
  return Object.entries(properties).map(([name, raw]) => {
    const field = isObject(raw) ? raw : {}
    const type = fieldType(field)
    const need = required.has(name) ? 'required' : 'optional'
    const about = typeof field.description === 'string' ? `  ${field.description}` : ''
    return `    ${name}: ${type} ${dim(`(${need})`)}${about}`
  })
}

/** A field's type as a person reads it: its choices, or its JSON Schema type. */
export function fieldType(field: JsonObject): string {
  return Array.isArray(field.enum) ? field.enum.map(String).join(' | ') : String(field.type ?? 'any')
}

function indent(text: string, by: number): string[] {
  return text === '' ? [] : text.split('\n').map((line) => `${' '.repeat(by)}${line}`)
}
