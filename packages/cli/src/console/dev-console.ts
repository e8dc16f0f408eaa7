/**
 * @module dev-console
 * The development console's server side, beside the MCP endpoint under `/_tessera/`: it subscribes
 * to what the server publishes on the `tessera:dev` channel, keeps the latest events, and streams
 * them to the page over SSE (`/_tessera/events`: what happened so far, then everything as it
 * happens), and serves the sandbox page a tool's view is rendered in (`/_tessera/view-frame`).
 * Loopback only: a foreign `Host` or `Origin` is answered 403 before any route, a `Host`
 * sent twice or that is no host and port 400, as the MCP endpoint answers it. It
 * exists only while a development start made it, so a production server has no such paths and
 * publishes nothing.
 */
import { subscribe, unsubscribe } from 'node:diagnostics_channel'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { constants } from 'node:http2'
import { join, relative, sep } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { DevConsoleHandler, DevEvent } from '@tessera/core/http'
import { assertKnownOptions, type OptionNames } from '@tessera/core/ports'
import { SuccessStatus, wireMappings } from '@tessera/core/protocol'
import { DEV_CONSOLE_CHANNEL } from '../dev/dev-messages.ts'
import { foreignRequest } from './loopback.ts'
import { loadViewPolicies, viewFramePage } from './view-frame.ts'

/** Where the console is served, beside the MCP endpoint: its page, and its event stream under `events`. */
export const CONSOLE_PATH = '/_tessera/'

// The error table has the refusals, and `SuccessStatus` the page served; the redirect to the folder
// is neither, so its status comes from Node's names.
const PERMANENT_REDIRECT = constants.HTTP_STATUS_PERMANENT_REDIRECT

/** How much the console keeps for a page that opens, and how it keeps an idle stream alive. */
export interface DevConsoleOptions {
  /** How many of the latest events a page that opens is sent first (default 2000). */
  history?: number
  /** How often an idle event stream gets a comment, so proxies and browsers keep it (default 15 s). */
  keepAliveMs?: number
}

const DEV_CONSOLE_OPTION_NAMES = {
  history: true,
  keepAliveMs: true,
} as const satisfies OptionNames<DevConsoleOptions>

/** The console's server side: the handler the HTTP face calls first, and the events it kept. */
export interface DevConsole extends DevConsoleHandler {
  /** The events kept for a page that opens now, oldest first. */
  history(): readonly DevEvent[]
}

/**
 * Makes the console and subscribes it to what the server publishes; `close()` unsubscribes and
 * ends every open page's stream. `tessera dev` makes one for you.
 *
 * @example
 * ```ts
 * import { createServer as createHttpServer } from 'node:http'
 * import { createDevConsole } from '@tessera/cli/console'
 * import { createServer } from '@tessera/core'
 * import { createNodeListener } from '@tessera/core/http'
 *
 * const app = createServer({ name: 'ops', version: '1.0.0' })
 * const mcp = createNodeListener(app)
 * const devConsole = createDevConsole({ history: 500 })
 * // The console's paths first (open http://127.0.0.1:3000/_tessera/), the rest to the MCP endpoint.
 * createHttpServer((req, res) => {
 *   if (!devConsole.handle(req, res, '/mcp')) mcp(req, res)
 * }).listen(3000, '127.0.0.1')
 * ```
 */
export function createDevConsole(options: DevConsoleOptions = {}): DevConsole {
  assertKnownOptions(options, DEV_CONSOLE_OPTION_NAMES, 'createDevConsole')
  const limit = options.history ?? 2000
  if (!Number.isInteger(limit) || limit < 1) throw new RangeError('history must be a positive integer')
  const keepAliveMs = options.keepAliveMs ?? 15_000
  const kept: DevEvent[] = []
  const pages = new Set<ServerResponse>()
  let nextEventId = 1

  // Events are serialised as they arrive: a request record is filled in as it goes through the
  // layers, and the page must see it as it was at that moment.
  const onEvent = (message: unknown): void => {
    const event = structuredClone(message as DevEvent)
    kept.push(event)
    if (kept.length > limit) kept.shift()
    const frame = sseFrame(nextEventId++, event)
    for (const page of pages) page.write(frame)
  }
  subscribe(DEV_CONSOLE_CHANNEL, onEvent)
  const keepAlive = setInterval(() => {
    for (const page of pages) page.write(': keep-alive\n\n')
  }, keepAliveMs)
  keepAlive.unref()

  const streamEvents = (req: IncomingMessage, res: ServerResponse): void => {
    res.writeHead(SuccessStatus.ok, {
      'content-type': 'text/event-stream',
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
    })
    // The headers go now, with the reconnection delay, even when nothing has happened yet.
    res.write('retry: 1000\n\n')
    let id = nextEventId - kept.length
    for (const event of kept) res.write(sseFrame(id++, event))
    pages.add(res)
    req.once('close', () => pages.delete(res))
  }

  let built: PageFiles | undefined
  const servePage = (res: ServerResponse, file: string, endpoint: string): void => {
    built ??= loadPage()
    if (built === undefined) {
      answer(res, wireMappings.TESSERA_UNAVAILABLE.http, {
        error: 'The console page is not built: run `npm run build`.',
      })
      return
    }
    const name = file === '' ? 'index.html' : file
    const content = built.files.get(name)
    if (content === undefined) {
      answer(res, wireMappings.TESSERA_NOT_FOUND.http, { error: 'Not found.' })
      return
    }
    const body = name === 'index.html' ? withEndpoint(content.toString('utf8'), endpoint) : content
    res.writeHead(SuccessStatus.ok, {
      'content-type': contentTypeOf(name),
      'content-length': Buffer.byteLength(body),
      'cache-control': name === 'index.html' ? 'no-store' : 'max-age=31536000, immutable',
      'x-content-type-options': 'nosniff',
      // Everything the page needs is its own: scripts, styles, the event stream and the endpoint.
      'content-security-policy':
        "default-src 'self'; img-src 'self' data:; media-src 'self' data:; frame-ancestors 'none'; base-uri 'none'",
    })
    res.end(body)
  }

  return {
    handle(req, res, endpoint) {
      const [path = '/', query = ''] = (req.url ?? '/').split('?', 2)
      if (path !== CONSOLE_PATH.slice(0, -1) && !path.startsWith(CONSOLE_PATH)) return false
      const refused = foreignRequest(req)
      if (refused !== undefined) {
        answer(res, refused.status, { error: refused.error })
        return true
      }
      if (req.method !== 'GET') {
        answer(
          res,
          wireMappings.TESSERA_METHOD_NOT_ALLOWED.http,
          { error: 'Method not allowed: use GET.' },
          { allow: 'GET' },
        )
        return true
      }
      if (path === `${CONSOLE_PATH}events`) streamEvents(req, res)
      else if (path === `${CONSOLE_PATH}view-frame`) void serveViewFrame(res, query)
      else if (path === CONSOLE_PATH.slice(0, -1)) {
        res.writeHead(PERMANENT_REDIRECT, { location: CONSOLE_PATH })
        res.end()
      } else servePage(res, path.slice(CONSOLE_PATH.length), endpoint)
      return true
    },
    history: () => kept,
    close() {
      unsubscribe(DEV_CONSOLE_CHANNEL, onEvent)
      clearInterval(keepAlive)
      for (const page of pages) page.end()
      pages.clear()
    },
  }
}

/** The sandbox page a tool's view is rendered in, under the view's own CSP. */
async function serveViewFrame(res: ServerResponse, query: string): Promise<void> {
  const policies = await loadViewPolicies()
  if (policies === undefined) {
    answer(res, wireMappings.TESSERA_UNAVAILABLE.http, {
      error:
        'The console renders views with @tessera/apps, which could not be loaded: npm install @tessera/apps.',
    })
    return
  }
  const frame = viewFramePage(query, policies)
  if ('problem' in frame) {
    answer(res, wireMappings.TESSERA_INVALID_REQUEST.http, { error: frame.problem })
    return
  }
  res.writeHead(SuccessStatus.ok, {
    'content-type': 'text/html; charset=utf-8',
    'content-length': Buffer.byteLength(frame.html),
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
    'content-security-policy': frame.policy,
  })
  res.end(frame.html)
}

function sseFrame(id: number, event: DevEvent): string {
  return `id: ${id}\nevent: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`
}

function answer(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body)
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
    'cache-control': 'no-store',
    ...headers,
  })
  res.end(text)
}

interface PageFiles {
  /** Paths relative to the page's directory, as the page names them. */
  files: Map<string, Buffer>
}

/**
 * The built page (`npm run build` puts it in `dist/console/ui/`), read once. Only the files that
 * are there can be served: a request names a key of this map, never a path on disk.
 */
function loadPage(): PageFiles | undefined {
  const candidates = [new URL('./ui/', import.meta.url), new URL('../../dist/console/ui/', import.meta.url)]
  const found = candidates.find((url) => existsSync(new URL('index.html', url)))
  if (found === undefined) return undefined
  const dir = fileURLToPath(found)
  const files = new Map<string, Buffer>()
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue
    const absolute = join(entry.parentPath ?? (entry as { path?: string }).path ?? dir, entry.name)
    files.set(relative(dir, absolute).split(sep).join('/'), readFileSync(absolute))
  }
  return { files }
}

const ENDPOINT_META = /<meta name="tessera-endpoint" content="[^"]*"/

function withEndpoint(html: string, endpoint: string): string {
  const escaped = endpoint.replace(/[&"<>]/g, (c) => `&#${c.charCodeAt(0)};`)
  return html.replace(ENDPOINT_META, `<meta name="tessera-endpoint" content="${escaped}"`)
}

const CONTENT_TYPES: Record<string, string> = {
  html: 'text/html; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
  map: 'application/json',
  svg: 'image/svg+xml',
}

function contentTypeOf(name: string): string {
  return CONTENT_TYPES[name.slice(name.lastIndexOf('.') + 1)] ?? 'application/octet-stream'
}
