/**
 * @module cli
 * The runner's command line: its options and --help, and which revisions a run covers (the
 * --revision list, 'all', or test/conformance/revisions.json), each checked against the
 * requirements the pinned suite ships.
 */
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { die, HERE, KNOWN_REVISIONS, SUITE_PKG } from './config.ts'
import { readJson } from './inputs.ts'
import { DEFAULT_ENTRIES } from './runtimes.ts'

/** The parsed options; a bad option exits with 2 and --help prints the usage and exits with 0. */
export function parseCli() {
  let args: ReturnType<typeof parse>
  try {
    args = parse()
  } catch (err) {
    console.error(`conformance: ${(err as Error).message} (see --help)`)
    process.exit(2)
  }
  if (args.help) {
    console.log(`usage: npm run conformance -- [--revision 2026-07-28|2025-11-25|all] [--verbose]
       [--runtime node|bun|deno|workerd|workerd-no-compat|workerd-durable] [--server <entry.ts>] [--url http://127.0.0.1:PORT/mcp]
  --revision  revision(s) to run (comma list or 'all'); default: test/conformance/revisions.json
  --runtime   what serves the fixture: node (listen, default), bun (Bun.serve), deno
              (Deno.serve) or workerd (bundled as a Worker; workerd-no-compat without Node
              compatibility; workerd-durable without it, the stores in a Durable Object),
              all but node through createFetchHandler
  --server    server entry started on the runtime (default: the fixture's entry for it,
              ${DEFAULT_ENTRIES.node} on node); it must listen on 127.0.0.1:$PORT at path /mcp
  --url       test an already running server instead of starting one
  --verbose   stream the suite's own output and print every failing check in full
  PORT        env: port for the started server (default: a free port)`)
    process.exit(0)
  }
  return args
}

function parse() {
  return parseArgs({
    options: {
      revision: { type: 'string' },
      url: { type: 'string' },
      runtime: { type: 'string', default: 'node' },
      server: { type: 'string' },
      verbose: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  }).values
}

/** The revisions to run, from `--revision` (`raw`) or revisions.json. */
export function selectRevisions(raw: string | undefined): string[] {
  let revs: string[]
  if (raw === undefined) {
    revs = readJson<string[]>(join(HERE, 'revisions.json'))
    if (!Array.isArray(revs) || revs.length === 0) {
      die('test/conformance/revisions.json must be a non-empty array')
    }
  } else if (raw === 'all') {
    revs = KNOWN_REVISIONS
  } else {
    revs = raw.split(',').map((r) => r.trim())
  }
  for (const r of revs) {
    if (!existsSync(join(SUITE_PKG, `requirements/${r}.yaml`))) {
      die(`unknown revision '${r}' (the pinned suite has requirements for: ${KNOWN_REVISIONS.join(', ')})`)
    }
  }
  return revs
}
