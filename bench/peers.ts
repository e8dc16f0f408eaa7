/**
 * The peers the benchmarks measure Tessera beside, each installed on demand into its own folder
 * under `.tessera` (never a dependency of the repository), with the versions it pins.
 */
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..')

/**
 * Each peer's folder and what it installs there (its own SDK and zod): the official SDK, and
 * mcp-use, which is built on an older release of it.
 */
export const PEERS: Record<string, { dir: string; packages: string[] }> = {
  official: {
    dir: join(ROOT, '.tessera/bench-peer'),
    packages: ['@modelcontextprotocol/server@2.4.0', '@modelcontextprotocol/node@2.1.2', 'zod'],
  },
  'mcp-use': { dir: join(ROOT, '.tessera/bench-mcp-use'), packages: ['mcp-use@2.5.2', 'zod'] },
}

/** `name@version` (or a bare `name`, any version): its name and the version it pins. */
function parseSpec(spec: string): { name: string; version: string | undefined } {
  const at = spec.lastIndexOf('@')
  return at > 0
    ? { name: spec.slice(0, at), version: spec.slice(at + 1) }
    : { name: spec, version: undefined }
}

function installedVersion(dir: string, name: string): string | undefined {
  try {
    const file = join(dir, 'node_modules', name, 'package.json')
    return (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version
  } catch {
    return undefined
  }
}

/**
 * Installs a peer into its folder under .tessera unless the pinned versions are there; whether
 * they are there now.
 */
export function ensurePeer(name: string): boolean {
  const { dir, packages } = PEERS[name]!
  const upToDate = packages.every((spec) => {
    const { name: pkg, version } = parseSpec(spec)
    const installed = installedVersion(dir, pkg)
    return version === undefined ? installed !== undefined : installed === version
  })
  if (upToDate) return true
  console.log(`bench: installing the peer ${name} (${packages.join(' ')}) into ${relative(ROOT, dir)} ...`)
  mkdirSync(dir, { recursive: true })
  const pkg = join(dir, 'package.json')
  if (!existsSync(pkg)) writeFileSync(pkg, '{"name":"bench-peer","private":true,"type":"module"}\n')
  const npmArgs = ['install', '--no-save', '--no-audit', '--no-fund', '--prefix', dir, ...packages]
  const r = spawnSync('npm', npmArgs, { cwd: ROOT, stdio: 'inherit' })
  return r.status === 0
}

/** The versions each peer in the run has installed, by package. */
export function peerVersions(names: string[]): Record<string, Record<string, string | undefined>> {
  return Object.fromEntries(
    names
      .filter((name) => PEERS[name] !== undefined)
      .map((name) => {
        const { dir, packages } = PEERS[name]!
        const names = packages.map((spec) => parseSpec(spec).name)
        return [name, Object.fromEntries(names.map((pkg) => [pkg, installedVersion(dir, pkg)]))]
      }),
  )
}
