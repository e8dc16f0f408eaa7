/**
 * @module dependency-rule.test
 * The dependency rule of ARCHITECTURE.md, checked on every import of every file (tests included
 * unless a rule says otherwise): `protocol` ← `schema` ← `security` ← `observation` ← `server` ←
 * `transports`, the root leaves (`errors.ts`, `option-checks.ts`) importable from every layer and
 * importing nothing, `reply.ts` (the replies built from the error table) importing only the table
 * and protocol's message shapes, transports reaching the server through `server/door.ts` alone,
 * no import cycle (type-only imports included), store
 * packages seeing only `@tessera/core` and their own driver (their tests may add vitest and the
 * shared suites of test/contracts, never another package's sources), and core loading no driver
 * and spawning no process. Each rule reports every offending import with its file and line.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { builtinModules } from 'node:module'
import { join, relative, sep } from 'node:path'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'
import {
  CORE_SRC,
  importsOf,
  isRelative,
  isTestFile,
  listTsFiles,
  packageOf,
  ROOT,
  repoPath,
  resolveRelative,
} from './import-scan.ts'

interface Edge {
  file: string
  line: number
  specifier: string
  /** For relative imports: the target's path under packages/core/src (or undefined outside it). */
  target: string | undefined
}

const coreFiles = listTsFiles(CORE_SRC)

/** `packages/core/src/<layer>/…` → `<layer>`; root files (index.ts, errors.ts) → their own name. */
function layerOf(coreRelative: string): string {
  return coreRelative.split('/')[0]!
}

/** Root files every layer may import; they import nothing of Tessera themselves. */
const LEAVES = ['errors.ts', 'option-checks.ts', 'string-verdicts.ts', 'with-fields.ts']
/** The replies every layer builds from the error table: over the table and protocol's shapes only. */
const REPLY = 'reply.ts'

function coreRelative(path: string): string | undefined {
  const rel = relative(CORE_SRC, path)
  return rel.startsWith('..') ? undefined : rel.split(sep).join('/')
}

function edgesOf(files: readonly string[]): Edge[] {
  return files.flatMap((file) =>
    importsOf(file).map((ref) => ({
      file: repoPath(file),
      line: ref.line,
      specifier: ref.specifier,
      target: isRelative(ref.specifier) ? coreRelative(resolveRelative(file, ref.specifier)) : undefined,
    })),
  )
}

const coreEdges = edgesOf(coreFiles)

function show(edge: Edge): string {
  return `${edge.file}:${edge.line} imports '${edge.specifier}'`
}

/** Relative imports from files in `from` whose target lies outside the layers allowed. */
function layerViolations(from: string, allowed: readonly string[]): string[] {
  return coreEdges
    .filter((edge) => layerOf(edge.file.slice('packages/core/src/'.length)) === from)
    .filter((edge) => {
      if (isRelative(edge.specifier))
        return edge.target === undefined || ![...allowed, ...LEAVES, REPLY].includes(layerOf(edge.target))
      return edge.specifier.startsWith('@tessera/')
    })
    .map(show)
}

/**
 * Imports between core source files, type-only ones included: a cycle of types ties modules as
 * tightly as a runtime one (neither can be understood, moved or tested alone). Tests are leaves.
 */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>()
  for (const file of coreFiles.filter((f) => !isTestFile(f))) {
    const targets = importsOf(file)
      .filter((ref) => isRelative(ref.specifier))
      .map((ref) => repoPath(resolveRelative(file, ref.specifier)))
    graph.set(repoPath(file), targets)
  }
  return graph
}

/** Every cycle of the graph, each reported once as `a → b → … → a`. */
function cyclesOf(graph: Map<string, string[]>): string[] {
  const found = new Set<string>()
  const state = new Map<string, 'open' | 'done'>()
  const stack: string[] = []
  const visit = (node: string): void => {
    state.set(node, 'open')
    stack.push(node)
    for (const next of graph.get(node) ?? []) {
      if (state.get(next) === 'open') {
        const cycle = stack.slice(stack.indexOf(next))
        const start = cycle.indexOf([...cycle].sort()[0]!)
        const canonical = [...cycle.slice(start), ...cycle.slice(0, start)]
        found.add([...canonical, canonical[0]].join(' → '))
      } else if (state.get(next) === undefined) visit(next)
    }
    stack.pop()
    state.set(node, 'done')
  }
  for (const node of graph.keys()) if (state.get(node) === undefined) visit(node)
  return [...found].sort()
}

/** Relative imports from files in `from` into any of `forbidden`. */
function forbiddenLayers(from: string, forbidden: readonly string[]): string[] {
  return coreEdges
    .filter((edge) => layerOf(edge.file.slice('packages/core/src/'.length)) === from)
    .filter((edge) => {
      if (isRelative(edge.specifier))
        return edge.target !== undefined && forbidden.includes(layerOf(edge.target))
      return edge.specifier.startsWith('@tessera/')
    })
    .map(show)
}

const BUILTINS = new Set(builtinModules.flatMap((name) => [name, `node:${name}`]))
const isBuiltin = (specifier: string) => BUILTINS.has(specifier) || BUILTINS.has(packageOf(specifier))

const DRIVERS = ['better-sqlite3', 'pg', 'ioredis']
const STORE_DRIVERS: Readonly<Record<string, string>> = {
  'store-sqlite': 'better-sqlite3',
  'store-redis': 'ioredis',
  'store-postgres': 'pg',
}
const TRANSPORTS = ['@tessera/core/http', '@tessera/core/stdio']
/** What a store's own tests may use besides the store's production imports. */
const STORE_TEST_TOOLS = new Set(['vitest', 'fast-check'])
/** Contract suites shared by every implementation of a port; tests may import them, code never. */
const SHARED_SUITES = join(ROOT, 'test/contracts')

function storeViolations(tests: boolean): string[] {
  const out: string[] = []
  for (const store of readdirSync(join(ROOT, 'packages')).filter((name) => name.startsWith('store-'))) {
    const src = join(ROOT, 'packages', store, 'src')
    const files = listTsFiles(src).filter((file) => isTestFile(file) === tests)
    const driver = STORE_DRIVERS[store]
    for (const file of files) {
      for (const ref of importsOf(file)) {
        const { specifier } = ref
        const edge = { file: repoPath(file), line: ref.line, specifier, target: undefined }
        if (isRelative(specifier)) {
          const target = resolveRelative(file, specifier)
          const inPackage = !relative(src, target).startsWith('..')
          const sharedSuite = tests && !relative(SHARED_SUITES, target).startsWith('..')
          if (!inPackage && !sharedSuite) out.push(show(edge))
          continue
        }
        const pkg = packageOf(specifier)
        const allowed =
          // A store never needs a transport; its tests may serve a real server through one.
          (pkg === '@tessera/core' && (tests || !TRANSPORTS.includes(specifier))) ||
          pkg === driver ||
          isBuiltin(specifier) ||
          (tests && STORE_TEST_TOOLS.has(pkg))
        if (!allowed) out.push(show(edge))
      }
    }
  }
  return out
}

/**
 * The imports of package `name`'s own files, outside its tests, that reach another package's
 * file by a relative path or a package that `allowed` refuses.
 */
function packageViolations(name: string, allowed: (specifier: string) => boolean): string[] {
  const src = join(ROOT, 'packages', name, 'src')
  const out: string[] = []
  for (const file of listTsFiles(src).filter((f) => !isTestFile(f))) {
    for (const ref of importsOf(file)) {
      const { specifier } = ref
      const edge = { file: repoPath(file), line: ref.line, specifier, target: undefined }
      if (isRelative(specifier)) {
        if (relative(src, resolveRelative(file, specifier)).startsWith('..')) out.push(show(edge))
      } else if (!allowed(specifier)) out.push(show(edge))
    }
  }
  return out
}

/** `@tessera/auth` outside its tests: core (any entry point), jose, Node built-ins, its own files. */
const authViolations = () =>
  packageViolations('auth', (specifier) => {
    const pkg = packageOf(specifier)
    return pkg === '@tessera/core' || pkg === 'jose' || isBuiltin(specifier)
  })

/**
 * `@tessera/cloudflare` outside its tests: `@tessera/core/ports`, the Workers runtime
 * (`cloudflare:workers`) and its own files. It runs where Node does not, so no Node built-in, and
 * it is a set of stores, so no transport.
 */
/**
 * `@tessera/skills` outside its tests: core (any entry point), js-yaml and its own files; it serves
 * skills on every runtime, so a Node built-in only in its Node entry (`src/node.ts`).
 */
const skillsViolations = () => {
  const nodeEntry = join(ROOT, 'packages', 'skills', 'src', 'node.ts')
  const builtins = listTsFiles(join(ROOT, 'packages', 'skills', 'src'))
    .filter((file) => !isTestFile(file) && file !== nodeEntry)
    .flatMap((file) => importsOf(file).map((ref) => ({ file, ref })))
    .filter(({ ref }) => isBuiltin(ref.specifier))
    .map(({ file, ref }) => `${repoPath(file)}:${ref.line} ${ref.specifier}`)
  const packages = packageViolations('skills', (specifier) => {
    const pkg = packageOf(specifier)
    return pkg === '@tessera/core' || pkg === 'js-yaml' || isBuiltin(specifier)
  })
  return [...builtins, ...packages]
}

const cloudflareViolations = () =>
  packageViolations('cloudflare', (specifier) =>
    ['@tessera/core/ports', 'cloudflare:workers'].includes(specifier),
  )

describe('dependency rule', () => {
  it('authImportsOnlyCoreJoseAndNodeBuiltins', () => {
    expect(authViolations()).toEqual([])
  })

  it('skillsImportsOnlyCoreAndYamlAndNodeOnlyInItsNodeEntry', () => {
    expect(listTsFiles(join(ROOT, 'packages', 'skills', 'src')).length).toBeGreaterThan(5)
    expect(skillsViolations()).toEqual([])
  })

  it('appsImportsOnlyCore', () => {
    expect(listTsFiles(join(ROOT, 'packages', 'apps', 'src')).length).toBeGreaterThan(3)
    expect(packageViolations('apps', (specifier) => packageOf(specifier) === '@tessera/core')).toEqual([])
  })

  it('cloudflareImportsOnlyCorePortsAndTheWorkersRuntime', () => {
    expect(listTsFiles(join(ROOT, 'packages', 'cloudflare', 'src')).length).toBeGreaterThan(5)
    expect(cloudflareViolations()).toEqual([])
  })

  it('findsTheCoreSourcesItChecks', () => {
    expect(coreFiles.length).toBeGreaterThan(20)
    expect(coreEdges.length).toBeGreaterThan(100)
  })

  it('protocolImportsNothingOutsideProtocol', () => {
    expect(layerViolations('protocol', ['protocol'])).toEqual([])
  })

  it('schemaImportsOnlyProtocolAndSchema', () => {
    expect(layerViolations('schema', ['protocol', 'schema'])).toEqual([])
  })

  it('securityImportsNoObservationServerOrTransports', () => {
    expect(forbiddenLayers('security', ['observation', 'server', 'transports'])).toEqual([])
  })

  it('observationImportsOnlyProtocolSecurityAndItself', () => {
    expect(layerViolations('observation', ['protocol', 'security', 'observation'])).toEqual([])
  })

  it('replyImportsOnlyTheErrorTableAndProtocol', () => {
    const found = coreEdges
      .filter((edge) => edge.file === `packages/core/src/${REPLY}`)
      .filter(
        (edge) =>
          !isRelative(edge.specifier) || !['errors.ts', 'protocol'].includes(layerOf(edge.target ?? '')),
      )
      .map(show)
    expect(found).toEqual([])
  })

  it('serverImportsNoTransports', () => {
    expect(forbiddenLayers('server', ['transports'])).toEqual([])
  })

  it('leavesImportNothingOfTessera', () => {
    const found = coreEdges.filter((edge) => LEAVES.includes(edge.file.slice('packages/core/src/'.length)))
    expect(
      found.filter((edge) => isRelative(edge.specifier) || edge.specifier.startsWith('@tessera/')).map(show),
    ).toEqual([])
  })

  // One door: what a transport may touch of the server is exactly what door.ts lists.
  it('transportsReachTheServerThroughItsDoorOnly', () => {
    const found = coreEdges
      .filter((edge) => edge.file.startsWith('packages/core/src/transports/') && !isTestFile(edge.file))
      .filter((edge) => edge.target?.startsWith('server/') && edge.target !== 'server/door.ts')
      .map(show)
    expect(found).toEqual([])
  })

  // The door hands out its own interfaces and the types its members take; it relays no function.
  it('doorReExportsNoRuntimeName', () => {
    const door = join(CORE_SRC, 'server/door.ts')
    const source = ts.createSourceFile(door, readFileSync(door, 'utf8'), ts.ScriptTarget.Latest, true)
    const runtime = source.statements
      .filter((node) => ts.isExportDeclaration(node) && !node.isTypeOnly)
      .map((node) => node.getText(source))
    expect(runtime).toEqual([])
  })

  // One seam: code announces steps to the observer; only the place that builds a server and the
  // platform it runs on choose its subscribers (and the request context reads the active trace
  // for its log lines).
  it('codeOutsideObservationReachesSubscribersOnlyThroughTheObserver', () => {
    const SUBSCRIBERS = ['observation/telemetry/', 'observation/dev-tap.ts', 'observation/log-subscriber.ts']
    const WIRING = [
      'server/server.ts',
      'server/platform.ts',
      'server/platform-node.ts',
      'server/context.ts',
      'transports/http/index.ts',
    ]
    const found = coreEdges
      .filter((edge) => !isTestFile(edge.file))
      .filter((edge) => layerOf(edge.file.slice('packages/core/src/'.length)) !== 'observation')
      .filter((edge) => SUBSCRIBERS.some((s) => edge.target?.startsWith(s)))
      .filter((edge) => !WIRING.includes(edge.file.slice('packages/core/src/'.length)))
      .map(show)
    expect(coreEdges.some((edge) => edge.target === 'observation/observer.ts')).toBe(true)
    expect(found).toEqual([])
  })

  it('hasNoImportCycleTypesIncluded', () => {
    const graph = importGraph()
    expect(graph.size).toBeGreaterThan(50)
    expect(cyclesOf(graph)).toEqual([])
  })

  it('findsACycleWhenThereIsOne', () => {
    const graph = new Map([
      ['a', ['b']],
      ['b', ['c']],
      ['c', ['a', 'd']],
      ['d', []],
    ])
    expect(cyclesOf(graph)).toEqual(['a → b → c → a'])
  })

  it('storePackagesImportOnlyCoreTheirDriverAndNodeBuiltins', () => {
    expect(storeViolations(false)).toEqual([])
  })

  it('storeTestsImportOnlyCoreTheirDriverAndTestTools', () => {
    expect(storeViolations(true)).toEqual([])
  })

  it('noCoreFileImportsAStoreDriverOrAStorePackage', () => {
    const found = coreEdges
      .filter((edge) => !isRelative(edge.specifier))
      .filter(
        (edge) => DRIVERS.includes(packageOf(edge.specifier)) || edge.specifier.startsWith('@tessera/store-'),
      )
      .map(show)
    expect(found).toEqual([])
  })

  // Tests may spawn processes (the guard's crash tests do); production code never does.
  it('noCoreSourceFileImportsChildProcess', () => {
    const found = coreEdges
      .filter((edge) => !isTestFile(edge.file))
      .filter((edge) => edge.specifier === 'node:child_process' || edge.specifier === 'child_process')
      .map(show)
    expect(found).toEqual([])
  })
})
