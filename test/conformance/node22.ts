/**
 * @module node22
 * The Node the suite runs on: the pinned suite needs Node >= 22 while the project supports Node 20,
 * so a Node 22 binary is installed on demand under .tessera/node22 and used for the suite only.
 */
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { die, NODE22_BIN, NODE22_PKG, NODE22_PREFIX, ROOT, rel } from './config.ts'

/** The path of a working Node >= 22 binary, installed first if there is none. */
export function ensureNode22(): string {
  const works = () => {
    if (!existsSync(NODE22_BIN)) return false
    const r = spawnSync(NODE22_BIN, ['--version'], { encoding: 'utf8' })
    return r.status === 0 && /^v(2[2-9]|[3-9]\d)\./.test(r.stdout.trim())
  }
  if (works()) return NODE22_BIN
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    die(
      `the conformance suite needs Node >= 22; ${NODE22_PKG} exists only for linux-x64 (this is ${process.platform}-${process.arch})`,
    )
  }
  console.log(`conformance: installing ${NODE22_PKG} into ${rel(NODE22_PREFIX)} (suite runner only) ...`)
  mkdirSync(NODE22_PREFIX, { recursive: true })
  const pkg = join(NODE22_PREFIX, 'package.json')
  if (!existsSync(pkg)) writeFileSync(pkg, '{"name":"node22","private":true}\n')
  const r = spawnSync(
    'npm',
    ['install', '--no-save', '--no-audit', '--no-fund', '--prefix', NODE22_PREFIX, NODE22_PKG],
    {
      cwd: ROOT,
      stdio: 'inherit',
    },
  )
  if (r.status !== 0 || !works()) {
    die(`installing ${NODE22_PKG} failed (npm exit ${r.status}); ${rel(NODE22_BIN)} is not usable`)
  }
  return NODE22_BIN
}
