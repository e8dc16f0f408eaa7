/**
 * @module snippet-check
 * Type-checks code blocks of the documentation as a reader would use them: each block is written
 * to a temporary folder as its own ES module, and one TypeScript program checks them all with the
 * root tsconfig's options (strict, NodeNext, `@tessera/*` mapped to the workspace sources by its
 * `paths`); `zod`, `pino` or an OpenTelemetry package resolves to the copy installed here
 * (`test/helpers/module-folder.ts`). A block that is a file of the
 * project `npm create tessera` writes is put at that file's path in one project folder, so the
 * generated test's `../src/server.js` finds the generated server. Read by `docs-snippets.test.ts`.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import ts from 'typescript'
import { moduleFolder } from '../helpers/module-folder.ts'
import { listTsFiles, ROOT, rootCompilerOptions } from './import-scan.ts'
import type { CodeBlock } from './markdown-code.ts'

const TEMPLATE = join(ROOT, 'packages/create-tessera/template')

/** `file:line` of the block, the line of the error in the Markdown, and the compiler's message. */
export interface SnippetFailure {
  block: CodeBlock
  /** The Markdown line the diagnostic points at. */
  line: number
  message: string
}

/** Every diagnostic of every block, in the order of the blocks; none when all compile. */
export function typecheckBlocks(blocks: readonly CodeBlock[]): SnippetFailure[] {
  const folder = moduleFolder()
  try {
    const template = new Map(listTsFiles(TEMPLATE).map((path) => [readFileSync(path, 'utf8'), path]))
    const files = new Map<string, CodeBlock>()
    for (const [index, block] of blocks.entries()) {
      const wanted = modulePath(block, index, template)
      // A second copy of a project file is a module of its own: the project has the first.
      const path = files.has(join(folder.dir, wanted)) ? ownName(block, index) : wanted
      files.set(folder.write(path, block.code), block)
    }
    return diagnose(files)
  } finally {
    folder.remove()
  }
}

/** `file:line: (at line N) TS1234: message`, as a failing test prints it. */
export function describeFailure(failure: SnippetFailure): string {
  return `${failure.block.file}:${failure.block.line}: (at line ${failure.line}) ${failure.message}`
}

function diagnose(files: ReadonlyMap<string, CodeBlock>): SnippetFailure[] {
  const program = ts.createProgram({
    rootNames: [...files.keys()],
    // Every block is a module, even one without an import: blocks never share declarations.
    options: { ...rootCompilerOptions(), noEmit: true, moduleDetection: ts.ModuleDetectionKind.Force },
  })
  const failures: SnippetFailure[] = []
  const [first] = files.values()
  for (const diagnostic of [...program.getOptionsDiagnostics(), ...program.getGlobalDiagnostics()]) {
    if (first !== undefined) failures.push({ block: first, line: first.line, message: text(diagnostic) })
  }
  for (const [path, block] of files) {
    const source = program.getSourceFile(path)
    if (source === undefined)
      throw new Error(`${block.file}:${block.line}: the compiler did not read the block`)
    const diagnostics = [
      ...program.getSyntacticDiagnostics(source),
      ...program.getSemanticDiagnostics(source),
    ]
    for (const diagnostic of diagnostics) {
      const offset =
        diagnostic.start === undefined ? 0 : source.getLineAndCharacterOfPosition(diagnostic.start).line
      failures.push({ block, line: block.line + 1 + offset, message: text(diagnostic) })
    }
  }
  return failures
}

function text(diagnostic: ts.Diagnostic): string {
  return `TS${diagnostic.code}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, ' ')}`
}

/**
 * Where a block is written: at its path in the generated project when it is one of its files
 * (`template` maps each file's text to its path), else under a name of its own.
 */
function modulePath(block: CodeBlock, index: number, template: ReadonlyMap<string, string>): string {
  const file = template.get(block.code)
  return file === undefined ? ownName(block, index) : join('create-tessera', file.slice(TEMPLATE.length))
}

/** `007-docs-guides-tasks-65.ts`: the block's file and line, readable in a stack trace. */
function ownName(block: CodeBlock, index: number): string {
  const name = block.file.replace(/\.md$/, '').replace(/[^a-z0-9]+/gi, '-')
  return `${String(index).padStart(3, '0')}-${name}-${block.line}.ts`
}
