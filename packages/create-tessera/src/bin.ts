#!/usr/bin/env node
/**
 * @module bin
 * `npm create tessera [folder] [--tarballs <folder>]`: asks for the folder when none is given (at
 * a terminal), writes the project, and says what to run next.
 */
import { relative } from 'node:path'
import { parseArgs } from 'node:util'
import * as clack from '@clack/prompts'
import { createProject } from './create-project.ts'

const USAGE = `Usage: npm create tessera <folder>   (or: npx create-tessera <folder>)

  --tarballs <folder>  depend on the packed packages in <folder> (npm run tarballs in a clone
                       of Tessera makes it) instead of the registry's release`

async function main(argv: string[]): Promise<number> {
  let parsed: ReturnType<typeof readArgs>
  try {
    parsed = readArgs(argv)
  } catch (error) {
    process.stderr.write(`create-tessera: ${(error as Error).message}\n${USAGE}\n`)
    return 64
  }
  if (parsed.values.help) {
    process.stdout.write(`${USAGE}\n`)
    return 0
  }
  if (parsed.positionals.length > 1) {
    process.stderr.write(`create-tessera: name one folder, not ${parsed.positionals.length}.\n${USAGE}\n`)
    return 64
  }
  let folder = parsed.positionals[0]
  if (folder === undefined) {
    if (!process.stdin.isTTY) {
      process.stderr.write(`create-tessera: name the folder to create.\n${USAGE}\n`)
      return 64
    }
    const answer = await clack.text({
      message: 'Where should the project go?',
      placeholder: 'my-mcp-server',
      defaultValue: 'my-mcp-server',
    })
    if (clack.isCancel(answer)) return 1
    folder = answer
  }
  try {
    const project = createProject(
      folder,
      parsed.values.tarballs === undefined ? {} : { tarballs: parsed.values.tarballs },
    )
    const shown = relative(process.cwd(), project.directory) || '.'
    process.stdout.write(
      `Created ${project.name} in ${shown}: ${project.files.length} files.\n\n` +
        `  cd ${shown}\n  npm install\n  npm run dev     # serves http://127.0.0.1:3000/mcp, restarts on change\n  npm test\n`,
    )
    return 0
  } catch (error) {
    process.stderr.write(`create-tessera: ${(error as Error).message}\n`)
    return 1
  }
}

function readArgs(argv: string[]) {
  return parseArgs({
    args: argv,
    allowPositionals: true,
    options: { help: { type: 'boolean', short: 'h' }, tarballs: { type: 'string' } },
  })
}

process.exitCode = await main(process.argv.slice(2))
