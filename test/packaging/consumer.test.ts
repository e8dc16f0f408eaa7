/**
 * @module consumer.test
 * The packages as a user outside this repository gets them: the tarballs `npm pack` makes,
 * installed into a new project with plain npm. There a hello-world server runs under plain
 * `node` over HTTP (both eras) and over stdio, the installed `tessera` binary inspects it, and a
 * TypeScript consumer of every entry point compiles `strict` with `nodenext` and with `bundler`
 * resolution, without skipLibCheck, where reading a property the tool's zod schema does not have
 * is a type error. `tessera build` bundles the server into one file that runs from a folder of its
 * own, and keeps the SQLite driver, which is native code, out of a bundle.
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process'
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { callTool, cleanEnv, MODERN_META, npmInstall, outsideFolder, packAll, run } from './tarballs.ts'

const HELLO = `import { createServer } from '@tessera/core'
import { listen } from '@tessera/core/http'
import { serveStdio } from '@tessera/core/stdio'
import { z } from 'zod'

const app = createServer({ name: 'consumer', version: '1.0.0' })
app.tool('greet', { description: 'Greets', input: z.object({ name: z.string() }) }, ({ name }) => \`Hello, \${name}.\`)
if (process.argv.includes('--stdio')) await serveStdio(app)
else console.log((await listen(app, { port: 0 })).url)
`

const TYPED = `import { createServer, type McpServer } from '@tessera/core'
import { createStateKeyFile } from '@tessera/core/request-state'
import { serveCluster } from '@tessera/core/cluster'
import { createFetchHandler, createNodeListener, listen } from '@tessera/core/http'
import { memoryReplayStore } from '@tessera/core/ports'
import { paramHeaders } from '@tessera/core/protocol'
import { serveStdio } from '@tessera/core/stdio'
import { createTestClient } from '@tessera/core/testing'
import { jwtVerifier, oauthResourceServer } from '@tessera/auth'
import { postgresStores } from '@tessera/store-postgres'
import { redisStores } from '@tessera/store-redis'
import { sqliteStores } from '@tessera/store-sqlite'
import { z } from 'zod'

export const app: McpServer = createServer({ name: 'typed', version: '1.0.0' })
app.tool(
  'greet',
  { description: 'Greets', input: z.object({ name: z.string(), times: z.number().int() }) },
  (args) => {
    const shout: string = args.name.toUpperCase()
    const times: number = args.times
    // @ts-expect-error \`nickname\` is not in the schema: inference from it reaches the handler
    const nickname: unknown = args.nickname
    return \`\${shout.repeat(times)}\${String(nickname)}\`
  },
)
export const entryPoints = [
  createStateKeyFile, serveCluster, createFetchHandler, createNodeListener, listen, memoryReplayStore,
  paramHeaders, serveStdio, createTestClient, postgresStores, redisStores, sqliteStores,
  oauthResourceServer, jwtVerifier,
]
`

const tsconfig = (module: string, moduleResolution: string) =>
  JSON.stringify({
    compilerOptions: {
      target: 'ES2023',
      module,
      moduleResolution,
      strict: true,
      skipLibCheck: false,
      noEmit: true,
      types: ['node'],
    },
    files: ['typed.ts'],
  })

let project: string
let tarballs: Map<string, string>

beforeAll(async () => {
  tarballs = packAll()
  project = outsideFolder('consumer')
  const file = (name: string) => `file:${tarballs.get(name)!}`
  writeFileSync(
    join(project, 'package.json'),
    JSON.stringify({
      name: 'tessera-consumer',
      private: true,
      type: 'module',
      dependencies: {
        '@tessera/auth': file('@tessera/auth'),
        '@tessera/core': file('@tessera/core'),
        '@tessera/store-sqlite': file('@tessera/store-sqlite'),
        '@tessera/store-redis': file('@tessera/store-redis'),
        '@tessera/store-postgres': file('@tessera/store-postgres'),
        zod: '^4.0.0',
      },
      devDependencies: {
        '@tessera/cli': file('@tessera/cli'),
        '@types/node': '^20.19.0',
        typescript: '~5.9.0',
      },
      // Not yet on the registry: the packages that depend on core get the tarball too.
      overrides: { '@tessera/core': '$@tessera/core' },
    }),
  )
  writeFileSync(join(project, 'hello.mjs'), HELLO)
  writeFileSync(join(project, 'typed.ts'), TYPED)
  writeFileSync(join(project, 'tsconfig.nodenext.json'), tsconfig('nodenext', 'nodenext'))
  writeFileSync(join(project, 'tsconfig.bundler.json'), tsconfig('preserve', 'bundler'))
  // No native build: the SQLite store is only type-checked here.
  await npmInstall(project, ['--ignore-scripts'])
}, 300_000)

afterAll(() => {
  process.stdout.write(`consumer project: ${project}\n`)
})

function startHello(args: string[] = []): ChildProcessWithoutNullStreams {
  return spawn(process.execPath, ['hello.mjs', ...args], {
    cwd: project,
    env: cleanEnv(),
    stdio: ['pipe', 'pipe', 'pipe'],
  })
}

async function post(url: string, body: object, headers: Record<string, string>) {
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      accept: 'application/json, text/event-stream',
      'content-type': 'application/json',
      ...headers,
    },
    body: JSON.stringify(body),
  })
  return { response, body: (await response.json()) as { result?: Record<string, unknown> } }
}

/** The URL a server prints once it listens. */
function listeningUrl(child: ChildProcessWithoutNullStreams): Promise<string> {
  return new Promise<string>((resolve) => createInterface({ input: child.stdout }).once('line', resolve))
}

describe('a project outside the repository', () => {
  it('runsTheServerWithPlainNodeOverHttpInBothEras', async () => {
    const child = startHello()
    try {
      const url = await listeningUrl(child)
      const modern = await callTool(url, 'greet', { name: 'Ada' })
      expect(modern.result?.content).toEqual([{ type: 'text', text: 'Hello, Ada.' }])
      const init = await post(
        url,
        {
          jsonrpc: '2.0',
          id: 2,
          method: 'initialize',
          params: {
            protocolVersion: '2025-11-25',
            capabilities: {},
            clientInfo: { name: 'c', version: '1' },
          },
        },
        {},
      )
      expect(init.body.result?.protocolVersion).toBe('2025-11-25')
      expect(init.response.headers.get('mcp-session-id')).toBeTruthy()

      const inspected = await run(join(project, 'node_modules/.bin/tessera'), ['inspect', url], project)
      expect(inspected.code).toBe(0)
      expect(inspected.output).toContain('consumer 1.0.0')
      expect(inspected.output).toContain('greet')
    } finally {
      child.kill()
    }
  })

  it('runsTheServerWithPlainNodeOverStdio', async () => {
    const child = startHello(['--stdio'])
    try {
      const lines = createInterface({ input: child.stdout })
      const answer = new Promise<string>((resolve) => lines.once('line', resolve))
      child.stdin.write(
        `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'greet', arguments: { name: 'Lin' }, _meta: MODERN_META } })}\n`,
      )
      const reply = JSON.parse(await answer) as { result: { content: unknown } }
      expect(reply.result.content).toEqual([{ type: 'text', text: 'Hello, Lin.' }])
    } finally {
      child.kill()
    }
  })

  it('bundlesTheServerWithTesseraBuildAndRunsTheBundleFromAFolderOfItsOwn', async () => {
    const tessera = join(project, 'node_modules/.bin/tessera')
    const built = await run(tessera, ['build', 'hello.mjs', '--out', 'bundle/hello.mjs'], project)
    expect(built.code, built.output).toBe(0)
    expect(built.output).toContain('bundle/hello.mjs: ')
    expect(built.output).not.toContain('left out')
    const alone = outsideFolder('bundle')
    copyFileSync(join(project, 'bundle/hello.mjs'), join(alone, 'hello.mjs'))
    const child = spawn(process.execPath, ['hello.mjs'], { cwd: alone, env: cleanEnv() })
    try {
      const answered = await callTool(await listeningUrl(child), 'greet', { name: 'Bo' })
      expect(answered.result?.content).toEqual([{ type: 'text', text: 'Hello, Bo.' }])
    } finally {
      child.kill()
    }
  })

  it('keepsTheSqliteDriverOutOfABundleAndSaysSo', async () => {
    // better-sqlite3 is native code: it must be installed beside the bundle, never copied in.
    writeFileSync(
      join(project, 'stores.mjs'),
      "import { sqliteStores } from '@tessera/store-sqlite'\nconsole.log(typeof sqliteStores)\n",
    )
    const built = await run(
      join(project, 'node_modules/.bin/tessera'),
      ['build', 'stores.mjs', '-o', 'bundle/stores.mjs'],
      project,
    )
    expect(built.code, built.output).toBe(0)
    expect(built.output).toContain('left out, to be installed beside it: better-sqlite3')
    expect(readFileSync(join(project, 'bundle/stores.mjs'), 'utf8')).toMatch(/require\("better-sqlite3"\)/)
  })

  it.each(['nodenext', 'bundler'])('compilesATypeScriptConsumerStrictlyWith%sResolution', async (mode) => {
    const compiled = await run(
      process.execPath,
      ['node_modules/typescript/bin/tsc', '-p', `tsconfig.${mode}.json`],
      project,
    )
    expect(compiled.output).toBe('')
    expect(compiled.code).toBe(0)
  })

  it('reportsTheReadOfAPropertyTheSchemaLacksWithoutTheDirective', async () => {
    // The control: without the directive, the same read is reported, so the check above can fail.
    writeFileSync(join(project, 'typed.ts'), TYPED.replace(/\s*\/\/ @ts-expect-error.*\n/, '\n'))
    const compiled = await run(
      process.execPath,
      ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.nodenext.json'],
      project,
    )
    writeFileSync(join(project, 'typed.ts'), TYPED)
    expect(compiled.code).not.toBe(0)
    expect(compiled.output).toContain("Property 'nickname' does not exist")
  })
})
