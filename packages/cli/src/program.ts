/**
 * @module program
 * The `tessera` command line: its commands, options and help, on commander. Every command
 * resolves to an exit code; bad usage exits 64. Whatever fails, commander's own complaints
 * included, is reported in one line (`failure.ts`); `--verbose` adds the stack and the cause.
 */
import { Command, CommanderError, Option } from 'commander'
import { buildServer, DEFAULT_BUNDLE_PATH } from './commands/build.ts'
import { call } from './commands/call.ts'
import { dev } from './commands/dev.ts'
import { ExitCode } from './commands/exit-codes.ts'
import { failure, oneLine, UsageError } from './commands/failure.ts'
import { fetchSkill } from './commands/fetch-skill.ts'
import { inspect } from './commands/inspect.ts'
import { keysList, keysNew, keysRotate } from './commands/keys.ts'

const collect = (value: string, previous: string[] = []) => [...previous, value]

function targetOptions(command: Command): Command {
  return command
    .option('--stdio <command>', 'run the server as a child process and talk over its stdin/stdout')
    .addOption(
      new Option('--era <era>', 'which revision to speak')
        .choices(['auto', 'modern', 'handshake'])
        .default('auto'),
    )
    .option('-H, --header <name: value>', 'an HTTP header for every request (repeatable)', collect)
}

/**
 * Runs the command line `argv` (without the node and script names) and resolves with the exit
 * code, as the `tessera` command would exit with it.
 *
 * @example
 * ```ts
 * import { run } from '@tessera/cli'
 *
 * const code = await run(['inspect', 'http://127.0.0.1:3000/mcp', '--json'])
 * if (code !== 0) process.exitCode = code
 * ```
 */
export async function run(argv: readonly string[]): Promise<number> {
  let code: number = ExitCode.ok
  const program = defineProgram((ran) => {
    code = ran
  })
  try {
    await program.parseAsync(argv, { from: 'user' })
    return code
  } catch (error) {
    if (error instanceof CommanderError)
      return error.exitCode === 0 || error.code === 'commander.helpDisplayed' ? ExitCode.ok : ExitCode.usage
    return failure(error, program.opts().verbose === true)
  }
}

/** The `tessera` command and its subcommands; each action reports its exit code to `exit`. */
function defineProgram(exit: (code: number) => void): Command {
  const program = new Command('tessera')
    .description('Run, bundle, inspect and call MCP servers; manage requestState key files.')
    .version('0.1.0')
    .option('--verbose', 'when a command fails, print the stack and the cause of the error too')
    .exitOverride()
    .configureOutput({ writeErr: (text) => process.stderr.write(text) })

  program
    .command('dev')
    .description('run a server file with reload on change and readable logs')
    .argument('<entry>', 'the server file (TypeScript or JavaScript)')
    .argument(
      '[args...]',
      "the server file's own arguments, after -- (tessera dev src/main.ts -- --workers 2)",
    )
    .option('-p, --port <port>', 'passed to the server as PORT')
    .option('--log-level <level>', 'TESSERA_LOG_LEVEL for the server', 'info')
    .option('--no-console', 'do not serve the development console at /_tessera/')
    .action(async (entry: string, args: string[], options) => {
      exit(await dev(entry, { ...options, args }))
    })
  program
    .command('build')
    .description('bundle a server file into one ES module for Node, for a fast cold start')
    .argument('<entry>', 'the server file (TypeScript or JavaScript)')
    .option('-o, --out <file>', 'the bundle (.mjs)', DEFAULT_BUNDLE_PATH)
    .option('--external <package>', 'leave a package out, to install beside the bundle (repeatable)', collect)
    .option('--minify', 'minify the bundle')
    .action(async (entry: string, options) => {
      exit(await buildServer(entry, options))
    })
  defineClientCommands(program, exit)
  defineKeyCommands(program, exit)
  pointToHelp(program)
  return program
}

/** `tessera inspect` and `tessera call`: a client of a running server. */
function defineClientCommands(program: Command, exit: (code: number) => void): void {
  targetOptions(
    program
      .command('inspect')
      .description('show what a server offers: tools, resources, templates, prompts, skills, views')
      .argument('[url]', 'the MCP endpoint, e.g. http://127.0.0.1:3000/mcp'),
  )
    .option('--json', 'print one JSON document instead')
    .action(async (url: string | undefined, options) => {
      exit(await inspect(url, options))
    })

  targetOptions(
    program
      .command('call')
      .description('call a tool, answering its questions at the terminal (or fetch a skill)')
      .argument('[url]', 'the MCP endpoint (omit with --stdio)')
      .argument('[tool]', 'the tool to call'),
  )
    .option('-a, --arg <key=value>', 'an argument, typed by the tool schema (repeatable)', collect)
    .option('--json <object>', 'the arguments as one JSON object (before --arg)')
    .option('--answers <object>', 'answers by question key, as JSON, instead of asking')
    .option('--skill <name>', "print a skill's SKILL.md (by name or URI), checked against its digest")
    .action(async (first: string | undefined, second: string | undefined, options) => {
      if (options.skill !== undefined) {
        if (second !== undefined) throw new UsageError('Call a tool or fetch a skill, not both.')
        return exit(await fetchSkill(first, options.skill, options))
      }
      // With --stdio there is no URL: the one positional is the tool.
      const [url, tool] = second === undefined ? [undefined, first] : [first, second]
      // A lone URL without --stdio is a call that forgot its tool, not a tool named like a URL.
      if (tool === undefined || (url === undefined && options.stdio === undefined && /^https?:/.test(tool)))
        throw new UsageError(
          "Name the tool to call: tessera call <url> <tool> ('tessera inspect <url>' lists them).",
        )
      exit(await call(url, tool, options))
    })
}

/** `tessera keys`: the requestState key file. */
function defineKeyCommands(program: Command, exit: (code: number) => void): void {
  const keys = program.command('keys').description('manage a requestState key file (never prints secrets)')
  keys
    .command('new')
    .argument('<file>')
    .description('write a new key file with one key, mode 0600')
    .action((file: string) => {
      exit(keysNew(file))
    })
  keys
    .command('rotate')
    .argument('<file>')
    .option('--retire <id>', 'instead: remove the old key <id>, the last phase of a rotation')
    .description('put a new key first (it seals new states) and keep the others')
    .action((file: string, options) => {
      exit(keysRotate(file, options))
    })
  keys
    .command('list')
    .argument('<file>')
    .description('show the key ids, the sealing key first')
    .action((file: string) => {
      exit(keysList(file))
    })
}

/** Commander's complaints about a command line, in one line that points to the command's help. */
function pointToHelp(command: Command, name = command.name()): void {
  command.configureOutput({ outputError: (text, write) => write(`${complaint(text, name)}\n`) })
  for (const sub of command.commands) pointToHelp(sub, `${name} ${sub.name()}`)
}

/** `error: unknown option '--x'\n(Did you mean --y?)` → `tessera: unknown option '--x' (Did you mean --y?); see … --help.` */
function complaint(text: string, name: string): string {
  const said = text
    .trim()
    .replace(/^error: /, '')
    .replace(/\.$/, '')
  return oneLine(`tessera: ${said}; see ${name} --help.`)
}
