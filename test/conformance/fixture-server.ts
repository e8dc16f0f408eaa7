/**
 * @module fixture-server
 * The server under test when the runner starts one: a port (PORT from the environment, checked
 * free, or any free port), the entry spawned on its runtime (`runtimes.ts`) with its output in
 * results/server.log, the wait until it accepts connections, and a stop that escalates from
 * SIGTERM to SIGKILL.
 */
import type { ChildProcess } from 'node:child_process'
import { createWriteStream } from 'node:fs'
import { connect, createServer } from 'node:net'
import { join } from 'node:path'
import { die, RESULTS, STARTUP_TIMEOUT_MS, STOP_TIMEOUT_MS } from './config.ts'
import { type Runtime, startOn } from './runtimes.ts'

/** A port free on 127.0.0.1 now. */
export function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const s = createServer()
    s.once('error', fail)
    s.listen(0, '127.0.0.1', () => {
      const addr = s.address()
      s.close(() => (typeof addr === 'object' && addr ? ok(addr.port) : fail(new Error('no port'))))
    })
  })
}

function portIsFree(port: number): Promise<boolean> {
  return new Promise((ok) => {
    const s = createServer()
    s.once('error', () => ok(false))
    s.listen(port, '127.0.0.1', () => s.close(() => ok(true)))
  })
}

function tcpConnects(port: number): Promise<boolean> {
  return new Promise((ok) => {
    const sock = connect({ host: '127.0.0.1', port })
    sock.setTimeout(1000)
    sock.once('connect', () => {
      sock.destroy()
      ok(true)
    })
    sock.once('error', () => ok(false))
    sock.once('timeout', () => {
      sock.destroy()
      ok(false)
    })
  })
}

/** The port to start the server on: PORT when set (it must be a free port), any free port otherwise. */
export async function choosePort(): Promise<number> {
  if (process.env.PORT) {
    const port = Number(process.env.PORT)
    if (!Number.isInteger(port) || port <= 0 || port > 65535) {
      die(`PORT=${process.env.PORT} is not a port`)
    }
    if (!(await portIsFree(port))) die(`PORT=${port} is already in use on 127.0.0.1`)
    return port
  }
  return freePort()
}

export interface RunningServer {
  child: ChildProcess
  stderrTail: () => string
  exited: () => string | undefined
  /** Removes what starting it left behind (a bundled Worker's files). */
  cleanup: () => void
}

export async function startServer(entry: string, port: number, runtime: Runtime): Promise<RunningServer> {
  const log = createWriteStream(join(RESULTS, 'server.log'))
  const started = await startOn(runtime, entry, port)
  const { child } = started
  let tail = ''
  let exit: string | undefined
  child.stdout?.pipe(log, { end: false })
  child.stderr?.on('data', (d: Buffer) => {
    log.write(d)
    tail = (tail + d.toString()).slice(-8000)
  })
  child.on('error', (err) => {
    exit = `spawn error: ${err.message}`
  })
  child.on('exit', (code, signal) => {
    exit ??= signal ? `killed by ${signal}` : `exited with code ${code}`
  })
  child.on('close', () => log.end())
  return { child, stderrTail: () => tail, exited: () => exit, cleanup: () => started.stop() }
}

export async function waitUntilUp(server: RunningServer, port: number): Promise<void> {
  const deadline = Date.now() + STARTUP_TIMEOUT_MS
  while (Date.now() < deadline) {
    const exited = server.exited()
    if (exited) throw new Error(`the server ${exited} before accepting connections`)
    if (await tcpConnects(port)) return
    await new Promise((r) => setTimeout(r, 150))
  }
  throw new Error(
    `the server did not accept connections on 127.0.0.1:${port} within ${STARTUP_TIMEOUT_MS / 1000} s`,
  )
}

export async function stopServer(server: RunningServer): Promise<void> {
  const { child } = server
  if (child.exitCode === null && child.signalCode === null && !server.exited()) {
    const gone = new Promise<void>((r) => child.once('exit', () => r()))
    child.kill('SIGTERM')
    const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS)
    await gone
    clearTimeout(timer)
  }
  server.cleanup()
}
