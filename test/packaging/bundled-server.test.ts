/**
 * @module bundled-server.test
 * A server bundled into one file, as a deployment to a function platform makes it: the tarballs
 * installed into a project outside the repository, its server bundled by esbuild (as an ES
 * module, with the `require` its CommonJS packages need) and by Bun's bundler, and each bundle
 * run by plain `node` from a folder with no `node_modules`. What core loads on first use (pino at
 * the first log line, ipaddr.js for `trustProxy`, ajv for a raw JSON Schema of either dialect)
 * must be in the bundle; a bundle made without the `require` banner runs where the packages are
 * installed, as it did before they were bundled.
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process'
import { copyFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { build } from 'esbuild'
import { beforeAll, describe, expect, it } from 'vitest'
import { WORKSPACE_ROOT } from '../workspace-sources.ts'
import { callTool, cleanEnv, npmInstall, outsideFolder, packAll, run } from './tarballs.ts'

const SERVER = `import { createServer } from '@tessera/core'
import { listen } from '@tessera/core/http'
import { z } from 'zod'

const app = createServer({ name: 'bundled', version: '1.0.0' })
const count = { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] }
app.tool('count', { description: 'JSON Schema 2020-12', input: count }, ({ n }) => \`n=\${n}\`)
app.tool(
  'countOld',
  { description: 'JSON Schema draft-07', input: { $schema: 'http://json-schema.org/draft-07/schema#', ...count } },
  ({ n }) => \`old n=\${n}\`,
)
app.tool('fail', { description: 'Throws', input: z.object({}) }, () => {
  throw new Error('the failure to log')
})
const server = await listen(app, { host: '127.0.0.1', port: 0, trustProxy: ['127.0.0.1', '10.0.0.0/8'] })
console.log(server.url)
`

/** What esbuild's users add to an ES module bundle so that its CommonJS packages can `require`. */
const REQUIRE_BANNER =
  "import { createRequire as topLevelCreateRequire } from 'node:module'; const require = topLevelCreateRequire(import.meta.url);"

let project: string

beforeAll(async () => {
  const tarballs = packAll()
  project = outsideFolder('bundled')
  writeFileSync(
    join(project, 'package.json'),
    JSON.stringify({
      name: 'tessera-bundled',
      private: true,
      type: 'module',
      dependencies: { '@tessera/core': `file:${tarballs.get('@tessera/core')!}`, zod: '^4.0.0' },
    }),
  )
  writeFileSync(join(project, 'server.mjs'), SERVER)
  await npmInstall(project, ['--ignore-scripts'])
}, 300_000)

/** The bundle moved to a new folder of its own, with nothing beside it. */
function alone(bundle: string): string {
  const folder = outsideFolder('bundle-alone')
  copyFileSync(bundle, join(folder, 'server.mjs'))
  return folder
}

/** A call from behind a trusted proxy: the forwarded address is parsed and matched against the ranges. */
const call = (url: string, name: string, args: object) =>
  callTool(url, name, args, { headers: { 'x-forwarded-for': '10.1.2.3' } })

/** Runs the bundle in `folder` and checks every package core loads on first use. */
async function servesFrom(folder: string): Promise<void> {
  const child: ChildProcessWithoutNullStreams = spawn(process.execPath, ['server.mjs'], {
    cwd: folder,
    env: cleanEnv(),
  })
  let stderr = ''
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString()
  })
  try {
    const url = await new Promise<string>((resolve, reject) => {
      createInterface({ input: child.stdout }).once('line', resolve)
      child.once('exit', (code) => reject(new Error(`the bundle exited (${code}):\n${stderr}`)))
    })
    expect((await call(url, 'count', { n: 2 })).result?.content).toEqual([{ type: 'text', text: 'n=2' }])
    expect((await call(url, 'count', { n: 'two' })).error?.message).toBe(
      'Invalid params: arguments/n: must be integer.',
    )
    expect((await call(url, 'countOld', { n: 3 })).result?.content).toEqual([
      { type: 'text', text: 'old n=3' },
    ])
    expect((await call(url, 'fail', {})).result?.isError).toBe(true)
    await expect.poll(() => stderr, { timeout: 5_000 }).toContain('"event":"tool_failed"')
    expect(stderr).toContain('the failure to log')
    expect(stderr).not.toMatch(/Cannot find module|not supported/)
  } finally {
    child.kill()
  }
}

/** The project's server bundled by esbuild into `folder`, as an ES module; its warnings. */
async function esbuildInto(folder: string, banner?: string): Promise<string[]> {
  const built = await build({
    absWorkingDir: project,
    entryPoints: ['server.mjs'],
    outfile: join(project, folder, 'server.mjs'),
    bundle: true,
    platform: 'node',
    format: 'esm',
    ...(banner === undefined ? {} : { banner: { js: banner } }),
    logLevel: 'silent',
  })
  return built.warnings.map((warning) => warning.text)
}

describe('a server bundled into one file', () => {
  it('runsFromAnEsbuildBundleWithNoNodeModulesBesideIt', async () => {
    // Nothing in the packages for the application's author to puzzle over.
    expect(await esbuildInto('esbuild', REQUIRE_BANNER)).toEqual([])
    await servesFrom(alone(join(project, 'esbuild', 'server.mjs')))
  })

  it('runsFromAnEsbuildBundleWithoutTheRequireBannerWhereThePackagesAreInstalled', async () => {
    // Bundled pino cannot load Node's built-ins without a `require`: the installed one is used.
    await esbuildInto('no-banner')
    await servesFrom(join(project, 'no-banner'))
  })

  it('runsFromABunBundleWithNoNodeModulesBesideIt', async () => {
    const bundle = join(project, 'bun', 'server.mjs')
    const built = await run(
      join(WORKSPACE_ROOT, 'node_modules/.bin/bun'),
      ['build', 'server.mjs', '--target=node', `--outfile=${bundle}`],
      project,
    )
    expect(built.code, built.output).toBe(0)
    await servesFrom(alone(bundle))
  })
})
