/**
 * @module cli
 * Turns argv and the environment into one resolved configuration, or a usage error. Nothing here
 * touches the disk or the network, so every mode is decided before anything starts.
 */
import { resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import type { RateLimitOptions } from '@tessera/core'
import type { HttpOptions } from '@tessera/core/http'

export type StoreChoice =
  | { kind: 'sqlite'; path: string }
  | { kind: 'redis'; url: string }
  | { kind: 'postgres'; url: string }

export interface AppConfig {
  mode: 'http' | 'stdio'
  /** 1 serves in this process; more forks that many workers sharing the port and the stores. */
  workers: number
  host: string
  port: number
  path: string
  dataDir: string
  cataloguePath: string
  keysPath: string
  store: StoreChoice
  logLevel: string
  /** OAuth: tokens from this issuer, for this audience, signed by keys of this JWKS. */
  auth: AuthChoice | undefined
  /** How long a rollback takes to roll out. */
  rollbackSeconds: number
  /** How long an accepted rollback stays claimed by a worker that stopped answering. */
  leaseSeconds: number
  /** Send traces and metrics over OTLP/HTTP (to OTEL_EXPORTER_OTLP_ENDPOINT). */
  otel: boolean
  /** Serve the metrics for Prometheus on this port (one process only). */
  metricsPort: number | undefined
  /** The reverse proxies in front, whose forwarding headers are believed (addresses and CIDR ranges). */
  trustProxy: string[] | undefined
  /** The host names clients reach the server under (`*.example.com` for every subdomain). */
  allowedHosts: string[] | undefined
  /** Tool calls each caller may make per period, counted in the store every worker shares. */
  rateLimit: RateLimitChoice | undefined
}

/** `--rate-limit CALLS/SECONDS`: a caller's tool calls per period. */
export interface RateLimitChoice {
  calls: number
  seconds: number
}

export interface AuthChoice {
  issuer: string
  audience: string
  /** A JWKS URL, or the path of a JWKS file. */
  jwks: string
  dpop: boolean
}

export type CliResult =
  | { kind: 'run'; config: AppConfig }
  | { kind: 'help'; text: string }
  | { kind: 'error'; message: string }

const PACKAGE_DIR = fileURLToPath(new URL('..', import.meta.url))
export const SHIPPED_CATALOGUE = resolve(PACKAGE_DIR, 'data/ops.json')
export const DEFAULT_DATA_DIR = resolve(PACKAGE_DIR, '.data')

export const USAGE = `Usage: npm start -- [options]

Serves the ops catalogue MCP server (HTTP on 127.0.0.1:3000/mcp by default).

Options:
  --stdio            serve on stdin/stdout instead of HTTP (use "npm start --silent -- --stdio":
                     npm prints its banner on stdout otherwise)
  --workers N        HTTP with N worker processes sharing the port, the store and the state keys
  --port N           HTTP port (default: $PORT, else 3000; 0 picks a free port)
  --host HOST        HTTP bind address (default: $HOST, else 127.0.0.1)
  --data DIR         data folder: SQLite database and state keys (default: $TESSERA_DATA_DIR,
                     else examples/ops-catalogue/.data)
  --catalogue FILE   catalogue to load (default: the shipped data/ops.json)
  --keys FILE        requestState key file (default: DIR/state-keys.json, created on first start)
  --redis URL        keep single-use records and the deployment log in Redis (several hosts)
  --postgres URL     keep single-use records and the deployment log in PostgreSQL (several hosts)
  --auth-issuer URL  require OAuth access tokens from this issuer (with the two options below);
                     reads then need the scope ops:read, rollback needs ops:rollback
  --auth-audience URL  this server's URL as tokens name it (their aud), e.g. http://127.0.0.1:3000/mcp
  --auth-jwks FILE|URL  the issuer's public keys (a JWKS file or URL)
  --auth-dpop        also accept DPoP-bound tokens (each proof used once, across workers)
  --rollback-seconds N  how long a rollback takes to roll out (default 3; 0 to 600): a client that
                     declares the tasks extension gets a task to poll, any other waits
  --lease-seconds N  how long an accepted answer (or the rollback task it became) stays claimed by
                     a worker that stopped renewing it, before a retry or a read of the task may
                     settle it (default 15; 1 to 600)
  --otel             send OpenTelemetry traces and metrics over OTLP/HTTP to
                     $OTEL_EXPORTER_OTLP_ENDPOINT (default http://localhost:4318)
  --metrics-port N   serve the metrics for Prometheus at http://HOST:N/metrics (without --workers)
  --trust-proxy LIST the reverse proxies in front (addresses and CIDR ranges, comma-separated, e.g.
                     10.0.0.0/8,::1): their X-Forwarded-Host, -For, -Proto and Forwarded are believed
  --allowed-hosts LIST  the host names clients use (comma-separated; *.example.com for every
                     subdomain); needed when the server answers under a public name
  --rate-limit N/S   at most N tool calls per S seconds from each caller (its token's subject, or
                     its address), counted in the store every worker shares; more get HTTP 429
                     with Retry-After (e.g. 60/60)
  -h, --help         show this text

Environment: PORT, HOST, TESSERA_DATA_DIR, LOG_LEVEL (trace|debug|info|warn|error, default info).`

export function parseCli(argv: readonly string[], env: NodeJS.ProcessEnv): CliResult {
  let values: ReturnType<typeof parse>['values']
  try {
    values = parse(argv).values
  } catch (error) {
    return { kind: 'error', message: (error as Error).message }
  }
  if (values.help) return { kind: 'help', text: USAGE }

  const workers = values.workers === undefined ? 1 : integer(values.workers, 1, 64)
  if (workers === undefined) return { kind: 'error', message: '--workers must be an integer from 1 to 64.' }
  const port = integer(values.port ?? env.PORT ?? '3000', 0, 65_535)
  if (port === undefined)
    return { kind: 'error', message: 'the port (--port or PORT) must be an integer from 0 to 65535.' }
  if (values.stdio && values.workers !== undefined)
    return { kind: 'error', message: '--stdio and --workers cannot be combined.' }
  const authFlags = [values['auth-issuer'], values['auth-audience'], values['auth-jwks']]
  if (authFlags.some((v) => v !== undefined) && !authFlags.every((v) => v !== undefined))
    return { kind: 'error', message: '--auth-issuer, --auth-audience and --auth-jwks go together.' }
  if (values['auth-dpop'] && values['auth-issuer'] === undefined)
    return { kind: 'error', message: '--auth-dpop needs --auth-issuer, --auth-audience and --auth-jwks.' }
  if (values.stdio && values['auth-issuer'] !== undefined)
    return { kind: 'error', message: 'stdio carries no tokens: --auth-* options are for HTTP.' }
  const rollbackSeconds = integer(values['rollback-seconds'] ?? '3', 0, 600)
  if (rollbackSeconds === undefined)
    return { kind: 'error', message: '--rollback-seconds must be an integer from 0 to 600.' }
  const leaseSeconds = integer(values['lease-seconds'] ?? '15', 1, 600)
  if (leaseSeconds === undefined)
    return { kind: 'error', message: '--lease-seconds must be an integer from 1 to 600.' }
  const metricsPort =
    values['metrics-port'] === undefined ? undefined : integer(values['metrics-port'], 1, 65_535)
  if (values['metrics-port'] !== undefined && metricsPort === undefined)
    return { kind: 'error', message: '--metrics-port must be an integer from 1 to 65535.' }
  if (metricsPort !== undefined && (workers > 1 || values.stdio))
    return {
      kind: 'error',
      message: '--metrics-port serves one process: it cannot be combined with --workers or --stdio.',
    }
  const trustProxy = commaList(values['trust-proxy'])
  const allowedHosts = commaList(values['allowed-hosts'])
  if (values.stdio && (trustProxy !== undefined || allowedHosts !== undefined))
    return { kind: 'error', message: '--trust-proxy and --allowed-hosts are for HTTP, not --stdio.' }
  const rateLimit = values['rate-limit'] === undefined ? undefined : parseRateLimit(values['rate-limit'])
  if (values['rate-limit'] !== undefined && rateLimit === undefined)
    return {
      kind: 'error',
      message:
        '--rate-limit must be CALLS/SECONDS, e.g. 60/60: calls from 1 to 1000000, seconds from 1 to 86400.',
    }
  if (values.redis !== undefined && values.postgres !== undefined) {
    return { kind: 'error', message: '--redis and --postgres cannot be combined: choose one shared store.' }
  }

  const dataDir = resolve(values.data ?? nonEmpty(env.TESSERA_DATA_DIR) ?? DEFAULT_DATA_DIR)
  const store: StoreChoice =
    values.redis !== undefined
      ? { kind: 'redis', url: values.redis }
      : values.postgres !== undefined
        ? { kind: 'postgres', url: values.postgres }
        : { kind: 'sqlite', path: resolve(dataDir, 'ops.sqlite') }
  return {
    kind: 'run',
    config: {
      mode: values.stdio ? 'stdio' : 'http',
      workers,
      host: values.host ?? nonEmpty(env.HOST) ?? '127.0.0.1',
      port,
      path: '/mcp',
      dataDir,
      cataloguePath: resolve(values.catalogue ?? SHIPPED_CATALOGUE),
      keysPath: resolve(values.keys ?? resolve(dataDir, 'state-keys.json')),
      store,
      logLevel: nonEmpty(env.LOG_LEVEL) ?? 'info',
      rollbackSeconds,
      leaseSeconds,
      otel: values.otel === true,
      metricsPort,
      trustProxy,
      allowedHosts,
      rateLimit,
      auth:
        values['auth-issuer'] === undefined
          ? undefined
          : {
              issuer: values['auth-issuer'],
              audience: values['auth-audience']!,
              jwks: /^https?:\/\//.test(values['auth-jwks']!)
                ? values['auth-jwks']!
                : resolve(values['auth-jwks']!),
              dpop: values['auth-dpop'] === true,
            },
    },
  }
}

function parse(argv: readonly string[]) {
  return parseArgs({
    args: [...argv],
    strict: true,
    allowPositionals: false,
    options: {
      stdio: { type: 'boolean' },
      workers: { type: 'string' },
      port: { type: 'string' },
      host: { type: 'string' },
      data: { type: 'string' },
      catalogue: { type: 'string' },
      keys: { type: 'string' },
      redis: { type: 'string' },
      postgres: { type: 'string' },
      'auth-issuer': { type: 'string' },
      'auth-audience': { type: 'string' },
      'auth-jwks': { type: 'string' },
      'auth-dpop': { type: 'boolean' },
      'rollback-seconds': { type: 'string' },
      'lease-seconds': { type: 'string' },
      otel: { type: 'boolean' },
      'metrics-port': { type: 'string' },
      'trust-proxy': { type: 'string' },
      'allowed-hosts': { type: 'string' },
      'rate-limit': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  })
}

/** The items of a comma-separated option; undefined when it was not given. */
function commaList(text: string | undefined): string[] | undefined {
  if (text === undefined) return undefined
  return text
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '')
}

function parseRateLimit(text: string): RateLimitChoice | undefined {
  const [callsText, secondsText, ...rest] = text.split('/')
  if (rest.length > 0 || callsText === undefined || secondsText === undefined) return undefined
  const calls = integer(callsText, 1, 1_000_000)
  const seconds = integer(secondsText, 1, 86_400)
  return calls === undefined || seconds === undefined ? undefined : { calls, seconds }
}

function integer(text: string, min: number, max: number): number | undefined {
  if (!/^\d+$/.test(text)) return undefined
  const n = Number(text)
  return n >= min && n <= max ? n : undefined
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === '' ? undefined : value
}

/** The HTTP options `--trust-proxy` and `--allowed-hosts` give, for `listen` and `serveCluster`. */
export function proxyOptions(config: AppConfig): Pick<HttpOptions, 'trustProxy' | 'allowedHosts'> {
  const options: Pick<HttpOptions, 'trustProxy' | 'allowedHosts'> = {}
  if (config.trustProxy !== undefined) options.trustProxy = config.trustProxy
  if (config.allowedHosts !== undefined) options.allowedHosts = config.allowedHosts
  return options
}

/** The limits `--rate-limit` gives `createServer`: tools/call per caller, none without it. */
export function rateLimitOptions(config: AppConfig): RateLimitOptions | undefined {
  if (config.rateLimit === undefined) return undefined
  const { calls, seconds } = config.rateLimit
  return { methods: { 'tools/call': { calls, perMs: seconds * 1000 } } }
}
