/**
 * @module options-scan
 * Finds, with the TypeScript compiler, every exported function of every package entry point that
 * takes an options-like object: a parameter whose type is named `…Options`, or is an interface or
 * an object type written in place, declared in this repository. Classes (a server, a request),
 * functions, arrays and Node's or a driver's own types are not options. Read by
 * `options-checked.test.ts`, which holds every such function to refusing an unknown option.
 */
import ts from 'typescript'
import { entryPoints } from './api-report.ts'
import { ROOT, rootCompilerOptions } from './import-scan.ts'

export interface OptionTaker {
  /** `@tessera/core/http` */
  specifier: string
  /** The exported name. */
  name: string
  /** The parameter, by name, and the options type it takes (its name, or `{…}` when written in place). */
  parameter: string
  type: string
  /** Every property the options type declares, sorted. */
  properties: string[]
}

/** Every options-taking exported function, sorted by entry point and name, one row per parameter. */
export function optionTakers(): OptionTaker[] {
  const entries = entryPoints()
  const program = ts.createProgram({
    rootNames: entries.map((e) => e.file),
    options: { ...rootCompilerOptions(), noEmit: true },
  })
  const checker = program.getTypeChecker()
  const out: OptionTaker[] = []
  for (const entry of entries) {
    const source = program.getSourceFile(entry.file)
    const moduleSymbol = source && checker.getSymbolAtLocation(source)
    if (!moduleSymbol) throw new Error(`cannot read ${entry.file}`)
    for (const exported of checker.getExportsOfModule(moduleSymbol)) {
      const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported
      if (!(symbol.flags & ts.SymbolFlags.Function)) continue
      const seen = new Set<string>()
      for (const signature of checker.getTypeOfSymbol(symbol).getCallSignatures()) {
        for (const parameter of signature.getParameters()) {
          const declaration = parameter.valueDeclaration
          if (!declaration || seen.has(parameter.name)) continue
          const type = checker.getNonNullableType(checker.getTypeOfSymbolAtLocation(parameter, declaration))
          const options = (type.isUnion() ? type.types : [type]).find((member) => isOptionsType(member))
          if (options === undefined) continue
          seen.add(parameter.name)
          out.push({
            specifier: entry.specifier,
            name: exported.name,
            parameter: parameter.name,
            type: typeName(options),
            properties: checker
              .getPropertiesOfType(options)
              .map((p) => p.name)
              .sort(),
          })
        }
      }
    }
  }
  return out.sort((a, b) => `${a.specifier} ${a.name}`.localeCompare(`${b.specifier} ${b.name}`))
}

function isOptionsType(type: ts.Type): boolean {
  if (!(type.flags & ts.TypeFlags.Object) || type.getCallSignatures().length > 0) return false
  const symbol = type.aliasSymbol ?? type.getSymbol()
  if (symbol === undefined || symbol.flags & ts.SymbolFlags.Class) return false
  const declaration = symbol.declarations?.[0]
  const file = declaration?.getSourceFile().fileName ?? ''
  // Node's and the drivers' types (IncomingMessage, a Redis client) are not ours to check.
  if (!file.startsWith(ROOT) || file.includes('/node_modules/')) return false
  if (symbol.name.endsWith('Options')) return true
  // An interface of methods only is an object to call (the server), not options to read.
  if (
    declaration &&
    ts.isInterfaceDeclaration(declaration) &&
    declaration.members.every(ts.isMethodSignature)
  )
    return false
  return (symbol.flags & (ts.SymbolFlags.Interface | ts.SymbolFlags.TypeLiteral)) !== 0
}

function typeName(type: ts.Type): string {
  const symbol = type.aliasSymbol ?? type.getSymbol()
  return symbol === undefined || symbol.name === '__type' ? '{…}' : symbol.name
}
