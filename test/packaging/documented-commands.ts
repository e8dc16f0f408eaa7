/**
 * @module documented-commands
 * The shell commands a page of documentation tells a reader to run, read from its Markdown, so
 * a test runs what the page says rather than a copy that can drift from it; and a way to run
 * each block as a reader would: to its end, or, for a block that ends by starting a server, in
 * the background until the server says it is listening.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { cleanEnv, type Ran, run } from './tarballs.ts'

export interface ShellBlock {
  /** Where the block stands, for messages: `docs/get-started.md:42`. */
  at: string
  /** The block's first line when it is a comment saying where it runs (`# in a clone …`). */
  where: string | undefined
  text: string
}

/** The ```sh blocks of `file`, or of its section under `heading` (to the next heading of that level). */
export function shellBlocks(file: string, heading?: string): ShellBlock[] {
  const markdown = readFileSync(file, 'utf8')
  let start = 0
  let end = markdown.length
  if (heading !== undefined) {
    start = markdown.indexOf(`\n${heading}\n`)
    if (start < 0) throw new Error(`${file} has no heading ${heading}`)
    const level = /^#+/.exec(heading)![0]
    const next = markdown.indexOf(`\n${level} `, start + heading.length + 1)
    if (next >= 0) end = next
  }
  const blocks: ShellBlock[] = []
  for (const match of markdown.slice(start, end).matchAll(/^```sh\n([\s\S]*?)^```$/gm)) {
    const text = match[1]!
    const line = markdown.slice(0, start + match.index).split('\n').length
    const first = text.split('\n')[0]!
    blocks.push({ at: `${file}:${line}`, where: first.startsWith('# ') ? first.slice(2) : undefined, text })
  }
  return blocks
}

/** The command a block ends with starts a server that stays up (`npm run dev`, `npm start`). */
export const startsServer = (block: ShellBlock): boolean =>
  /(?:^|&& )npm (?:run dev|start)\s*$/.test(block.text.trimEnd().split('\n').at(-1)!)

/** Runs the block with bash, stopping at the first command that fails, as a reader's terminal would. */
export const runBlock = (block: ShellBlock, cwd: string): Promise<Ran> =>
  run('bash', ['-e', '-c', block.text], cwd)

export interface Serving {
  /** Everything the block has written so far. */
  output(): string
  stop(): Promise<void>
}

/**
 * Runs a block that ends by starting a server, in a process group of its own; resolves once a
 * line contains `listening`, and rejects with the block's output if it exits or `ms` pass first.
 */
export function serveBlock(
  block: ShellBlock,
  cwd: string,
  listening: string,
  ms = 240_000,
): Promise<Serving> {
  const child: ChildProcess = spawn('bash', ['-e', '-c', block.text], {
    cwd,
    env: cleanEnv(),
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  })
  let output = ''
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const serving: Serving = {
    output: () => output,
    async stop() {
      try {
        process.kill(-child.pid!, 'SIGTERM')
      } catch {
        return // already gone
      }
      await exited
    },
  }
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      void serving.stop()
      reject(new Error(`${block.at}: no "${listening}" within ${ms} ms:\n${output}`))
    }, ms)
    const take = (chunk: Buffer) => {
      output += chunk.toString()
      if (output.includes(listening)) {
        clearTimeout(timer)
        resolve(serving)
      }
    }
    child.stdout!.on('data', take)
    child.stderr!.on('data', take)
    void exited.then(() => {
      clearTimeout(timer)
      reject(new Error(`${block.at}: exited before "${listening}":\n${output}`))
    })
  })
}
