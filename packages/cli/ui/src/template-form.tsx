/**
 * @module template-form
 * A resource template as a form: one text field per variable of its URI template, required
 * unless the template may leave it out (a query parameter, the fragment). Reading fills the
 * template in (RFC 6570) and hands the URI on for `resources/read`.
 */
import type { Json } from './mcp-client.ts'
import type { ResourceTemplate } from './offer.ts'
import { SchemaForm } from './schema-form.tsx'
import {
  expandTemplate,
  type TemplateOperator,
  type TemplateVariable,
  templateVariables,
} from './uri-template.ts'

const WHERE: Record<TemplateOperator, string> = {
  '': 'one part of the URI (a / in it is encoded)',
  '+': 'may hold / and other reserved characters as they are',
  '#': 'the fragment, after #',
  '.': 'a label, after .',
  '/': 'one path segment',
  ';': 'a path parameter',
  '?': 'a query parameter',
  '&': 'a query parameter',
}
const OPTIONAL = new Set<TemplateOperator>(['#', ';', '?', '&'])

export function TemplateForm(props: { template: ResourceTemplate; onRead(uri: string): void }) {
  const { template, onRead } = props
  let variables: TemplateVariable[]
  try {
    variables = templateVariables(template.uriTemplate)
  } catch (error) {
    return <p role="alert">{(error as Error).message}</p>
  }
  const schema: Json = {
    type: 'object',
    properties: Object.fromEntries(
      variables.map((v) => [v.name, { type: 'string', description: WHERE[v.operator] }]),
    ),
    required: variables.filter((v) => !OPTIONAL.has(v.operator)).map((v) => v.name),
  }
  return (
    <SchemaForm
      key={template.uriTemplate}
      id="template"
      schema={schema}
      submitLabel="Read"
      onSubmit={(values) =>
        onRead(
          expandTemplate(
            template.uriTemplate,
            Object.fromEntries(Object.entries(values).map(([name, value]) => [name, String(value)])),
          ),
        )
      }
    />
  )
}
