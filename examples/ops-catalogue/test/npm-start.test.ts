/**
 * @module npm-start.test
 * `npm start` is how the demo is run, and how a supervisor stops it is SIGTERM to the npm
 * process: the server must stop with it (gracefully: its own log says so), not live on orphaned
 * with its port taken.
 */
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { connect } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import { freePort } from './spawn-ops.ts'

const ROOT = fileURLToPath(new URL('../../..', import.meta.url))
const dir = mkdtempSync(join(tmpdir(), 'ops-npm-start-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const answers = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, '127.0.0.1')
    socket.once('connect', () => {
      socket.destroy()
      resolve(true)
    })
    socket.once('error', () => resolve(false))
  })

describe('npm start', () => {
  it('stopsTheServerGracefullyWhenTheNpmProcessGetsSigterm', async () => {
    const port = await freePort()
    const npm = spawn('npm', ['start', '--silent', '--', '--data', dir], {
      cwd: ROOT,
      env: { ...process.env, PORT: String(port), LOG_LEVEL: 'info' },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let log = ''
    npm.stderr!.on('data', (chunk: Buffer) => {
      log += chunk.toString()
    })
    const exited = new Promise((resolve) => npm.once('exit', resolve))
    for (let i = 0; i < 600 && !log.includes('"event":"listening"'); i++) {
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
    expect(await answers(port)).toBe(true)
    npm.kill('SIGTERM')
    await exited
    for (let i = 0; i < 50 && (await answers(port)); i++)
      await new Promise((resolve) => setTimeout(resolve, 100))
    expect(await answers(port)).toBe(false)
    expect(log).toContain('"event":"stopped"')
  }, 90_000)
})
