/**
 * @module schema-form
 * A form generated from a JSON Schema object (a tool's input, an elicitation's requested schema):
 * one labelled field per property, enums as selects, booleans as checkboxes, numbers as number
 * fields, defaults filled in, required fields marked and enforced by the browser. Properties it
 * cannot render as a field (objects, arrays of objects) are edited as JSON.
 */
import { useState } from 'preact/hooks'
import type { Json } from './mcp-client.ts'

interface Property {
  type?: string | string[]
  enum?: unknown[]
  oneOf?: Array<{ const?: unknown; title?: string }>
  default?: unknown
  title?: string
  description?: string
  items?: { type?: string; enum?: unknown[] }
}

export interface SchemaFormProps {
  /** Prefix of the fields' ids, unique on the page. */
  id: string
  schema: Json
  submitLabel: string
  onSubmit(values: Json): void
  /** Extra buttons beside the submit button (decline, cancel). */
  children?: preact.ComponentChildren
}

const typeOf = (p: Property) => (Array.isArray(p.type) ? p.type.find((t) => t !== 'null') : p.type)
const choicesOf = (p: Property): unknown[] | undefined => p.enum ?? p.oneOf?.map((o) => o.const)

function initial(
  properties: Record<string, Property>,
  required: Set<string>,
): Record<string, string | boolean> {
  const values: Record<string, string | boolean> = {}
  for (const [name, p] of Object.entries(properties)) {
    const choices = choicesOf(p)
    if (typeOf(p) === 'boolean') values[name] = p.default === true
    else if (p.default !== undefined)
      values[name] = typeof p.default === 'string' ? p.default : JSON.stringify(p.default)
    // A required choice shows its first option selected: that is the value it holds.
    else if (choices !== undefined && required.has(name) && choices.length > 0)
      values[name] = String(choices[0])
    else values[name] = ''
  }
  return values
}

/** The field's text turned into the JSON value the schema asks for; undefined when left empty. */
function parsedValue(p: Property, raw: string | boolean): unknown {
  if (typeof raw === 'boolean') return raw
  if (raw === '') return undefined
  const type = typeOf(p)
  if (type === 'number' || type === 'integer') return Number(raw)
  if (type === 'string' || choicesOf(p)?.every((c) => typeof c === 'string')) return raw
  return JSON.parse(raw)
}

export function SchemaForm({ id, schema, submitLabel, onSubmit, children }: SchemaFormProps) {
  const properties = (schema.properties ?? {}) as Record<string, Property>
  const required = new Set((schema.required as string[] | undefined) ?? [])
  const [values, setValues] = useState(() => initial(properties, required))
  const [problem, setProblem] = useState<string>()
  const set = (name: string, value: string | boolean) => setValues({ ...values, [name]: value })

  const submit = (event: Event) => {
    event.preventDefault()
    const out: Json = {}
    try {
      for (const [name, p] of Object.entries(properties)) {
        const value = parsedValue(p, values[name] ?? '')
        if (value !== undefined) out[name] = value
      }
    } catch {
      setProblem('A JSON field does not hold valid JSON.')
      return
    }
    setProblem(undefined)
    onSubmit(out)
  }

  return (
    <form class="schema-form" onSubmit={submit}>
      {Object.entries(properties).map(([name, p]) => (
        <Field
          field={`${id}-${name}`}
          name={name}
          property={p}
          isRequired={required.has(name)}
          value={values[name]}
          set={(value) => set(name, value)}
        />
      ))}
      {problem && <p role="alert">{problem}</p>}
      <div class="actions">
        <button type="submit">{submitLabel}</button>
        {children}
      </div>
    </form>
  )
}

interface FieldProps {
  field: string
  name: string
  property: Property
  isRequired: boolean
  value: string | boolean | undefined
  set: (value: string | boolean) => void
}

/** One property of the form: its label, its input and its description. */
function Field(props: FieldProps) {
  const { field, name, property: p, isRequired } = props
  return (
    <div class="field">
      <label for={field}>
        {p.title ?? name}
        {isRequired && <span aria-hidden="true"> *</span>}
      </label>
      <FieldInput {...props} />
      {p.description && <small id={`${field}-help`}>{p.description}</small>}
    </div>
  )
}

/** The input that edits one property: a checkbox, a choice, a number, a line of text or JSON. */
function FieldInput({ field, property: p, isRequired, value, set }: FieldProps) {
  const type = typeOf(p)
  const choices = choicesOf(p)
  if (type === 'boolean') {
    return (
      <input
        id={field}
        type="checkbox"
        checked={value === true}
        onChange={(e) => set(e.currentTarget.checked)}
      />
    )
  }
  if (choices !== undefined) {
    return (
      <select
        id={field}
        required={isRequired}
        value={String(value ?? '')}
        onChange={(e) => set(e.currentTarget.value)}
      >
        {!isRequired && <option value="">(none)</option>}
        {choices.map((choice, i) => (
          <option value={String(choice)}>{p.oneOf?.[i]?.title ?? String(choice)}</option>
        ))}
      </select>
    )
  }
  if (type === 'number' || type === 'integer') {
    return (
      <input
        id={field}
        type="number"
        step={type === 'integer' ? '1' : 'any'}
        required={isRequired}
        value={String(value ?? '')}
        onInput={(e) => set(e.currentTarget.value)}
      />
    )
  }
  if (type === 'string') {
    return (
      <input
        id={field}
        type="text"
        required={isRequired}
        value={String(value ?? '')}
        onInput={(e) => set(e.currentTarget.value)}
      />
    )
  }
  return (
    <textarea
      id={field}
      required={isRequired}
      placeholder="JSON"
      value={String(value ?? '')}
      onInput={(e) => set(e.currentTarget.value)}
    />
  )
}
