/**
 * @module test-names
 * Finds the names of tests with the TypeScript parser: every call of `it` or `test`, with its
 * modifiers (`it.skip`, `it.skipIf(…)`, `it.each(…)`, `test.concurrent`, a tagged `it.each` table),
 * whose first argument is a string or a template. A template's name is its literal parts; the
 * placeholders between them are not checked. Shared by the architecture tests.
 */
import ts from 'typescript'

export interface TestName {
  /** The literal parts of the name, in order (one part for a plain string). */
  parts: string[]
  /** Whether the name begins with a placeholder (`${x}…`, or `%s…` in `it.each`). */
  leadingPlaceholder: boolean
  line: number
  /** The name as written, for messages. */
  text: string
}

const RUNNERS = new Set(['it', 'test'])
/** Calls that return a runner to be called with the name, not the test itself. */
const FACTORIES = new Set(['each', 'for', 'skipIf', 'runIf', 'extend'])

/** The runner (`it`/`test`) a callee is built from, or undefined when it is something else. */
function runnerOf(callee: ts.Expression): string | undefined {
  let node: ts.Expression = callee
  for (;;) {
    if (ts.isIdentifier(node)) return RUNNERS.has(node.text) ? node.text : undefined
    if (ts.isPropertyAccessExpression(node)) node = node.expression
    else if (ts.isCallExpression(node)) node = node.expression
    else if (ts.isTaggedTemplateExpression(node)) node = node.tag
    else return undefined
  }
}

/** Whether a call of a runner is the test itself, rather than `it.each(rows)` building one. */
function isTestCall(call: ts.CallExpression): boolean {
  if (runnerOf(call.expression) === undefined) return false
  const callee = call.expression
  return !(ts.isPropertyAccessExpression(callee) && FACTORIES.has(callee.name.text))
}

function nameOf(argument: ts.Expression): Pick<TestName, 'parts' | 'leadingPlaceholder'> | undefined {
  if (ts.isStringLiteral(argument) || ts.isNoSubstitutionTemplateLiteral(argument)) {
    return { parts: [argument.text], leadingPlaceholder: /^%[a-zA-Z#%]|^\$/.test(argument.text) }
  }
  if (ts.isTemplateExpression(argument)) {
    const parts = [argument.head.text, ...argument.templateSpans.map((span) => span.literal.text)]
    return { parts: parts.filter((part) => part !== ''), leadingPlaceholder: argument.head.text === '' }
  }
  return undefined
}

/** The static names of every test in a file's text. */
export function testNamesOf(path: string, text: string): TestName[] {
  const kind = path.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, kind)
  const names: TestName[] = []
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node) && node.arguments.length > 0 && isTestCall(node)) {
      const argument = node.arguments[0]!
      const name = nameOf(argument)
      if (name !== undefined) {
        const line = source.getLineAndCharacterOfPosition(argument.getStart(source)).line + 1
        names.push({ ...name, line, text: argument.getText(source) })
      }
    }
    ts.forEachChild(node, visit)
  }
  visit(source)
  return names
}

/**
 * Whether a name follows the one naming style: lowerCamelCase after the behaviour, no whitespace
 * in any literal part, and a lower-case first letter unless the name opens with a placeholder.
 */
export function isCamelCaseName(name: TestName): boolean {
  if (name.parts.some((part) => /\s/.test(part))) return false
  return name.leadingPlaceholder || /^[a-z]/.test(name.parts[0] ?? '')
}

/** Every test of a file whose name is not in the one style, as `line: name`. */
export function misnamedTests(path: string, text: string): string[] {
  return testNamesOf(path, text)
    .filter((name) => !isCamelCaseName(name))
    .map((name) => `${name.line}: ${name.text}`)
}
