/**
 * @module cli.test
 * The command line: defaults, the environment, and the combinations that make no sense.
 */
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { DEFAULT_DATA_DIR, parseCli, proxyOptions, rateLimitOptions, SHIPPED_CATALOGUE } from '../src/cli.ts'

describe('parseCli', () => {
  it('defaultsToHttpOnLoopbackPort3000OverSqliteInThePackageDataFolder', () => {
    const cli = parseCli([], {})
    expect(cli).toEqual({
      kind: 'run',
      config: {
        mode: 'http',
        workers: 1,
        host: '127.0.0.1',
        port: 3000,
        path: '/mcp',
        dataDir: DEFAULT_DATA_DIR,
        cataloguePath: SHIPPED_CATALOGUE,
        keysPath: resolve(DEFAULT_DATA_DIR, 'state-keys.json'),
        store: { kind: 'sqlite', path: resolve(DEFAULT_DATA_DIR, 'ops.sqlite') },
        logLevel: 'info',
        auth: undefined,
        rollbackSeconds: 3,
        leaseSeconds: 15,
        otel: false,
        metricsPort: undefined,
        trustProxy: undefined,
        allowedHosts: undefined,
        rateLimit: undefined,
      },
    })
  })

  it('takesTheProxiesInFrontAndThePublicHostNamesAsCommaSeparatedListsForHttp', () => {
    const behind = parseCli(
      ['--trust-proxy', '10.0.0.0/8, ::1', '--allowed-hosts', 'mcp.example.com,*.ops.example'],
      {},
    )
    expect(behind.kind === 'run' && proxyOptions(behind.config)).toEqual({
      trustProxy: ['10.0.0.0/8', '::1'],
      allowedHosts: ['mcp.example.com', '*.ops.example'],
    })
    const plain = parseCli([], {})
    expect(plain.kind === 'run' && proxyOptions(plain.config)).toEqual({})
    expect(parseCli(['--stdio', '--trust-proxy', '10.0.0.1'], {})).toEqual({
      kind: 'error',
      message: '--trust-proxy and --allowed-hosts are for HTTP, not --stdio.',
    })
  })

  it('takesARateLimitOfCallsPerSecondsAsALimitOnEachCallersToolCalls', () => {
    const limited = parseCli(['--rate-limit', '10/60'], {})
    expect(limited.kind === 'run' && rateLimitOptions(limited.config)).toEqual({
      methods: { 'tools/call': { calls: 10, perMs: 60_000 } },
    })
    const plain = parseCli([], {})
    expect(plain.kind === 'run' && rateLimitOptions(plain.config)).toBeUndefined()
    for (const bad of ['10', '10/0', '0/60', '10/60/2', 'ten/60', '1.5/60', '10/86401', '/60']) {
      expect(parseCli(['--rate-limit', bad], {}), bad).toEqual({
        kind: 'error',
        message:
          '--rate-limit must be CALLS/SECONDS, e.g. 60/60: calls from 1 to 1000000, seconds from 1 to 86400.',
      })
    }
  })

  it('takesALeaseOfOneToSixHundredSeconds', () => {
    const set = parseCli(['--lease-seconds', '2'], {})
    expect(set.kind === 'run' && set.config.leaseSeconds).toBe(2)
    expect(parseCli(['--lease-seconds', '0'], {})).toEqual({
      kind: 'error',
      message: '--lease-seconds must be an integer from 1 to 600.',
    })
  })

  it('turnsOnOpenTelemetryAndServesMetricsOnAPortOfOneProcessOnly', () => {
    const on = parseCli(['--otel', '--metrics-port', '9464'], {})
    expect(on.kind === 'run' && [on.config.otel, on.config.metricsPort]).toEqual([true, 9464])
    expect(parseCli(['--metrics-port', '9464', '--workers', '2'], {})).toEqual({
      kind: 'error',
      message: '--metrics-port serves one process: it cannot be combined with --workers or --stdio.',
    })
    expect(parseCli(['--metrics-port', '0'], {}).kind).toBe('error')
  })

  it('takesTheRollbackDurationInWholeSecondsFrom0To600', () => {
    const quick = parseCli(['--rollback-seconds', '0'], {})
    expect(quick.kind === 'run' && quick.config.rollbackSeconds).toBe(0)
    for (const bad of ['601', '1.5', 'soon']) {
      expect(parseCli(['--rollback-seconds', bad], {})).toEqual({
        kind: 'error',
        message: '--rollback-seconds must be an integer from 0 to 600.',
      })
    }
  })

  it('turnsOnOAuthWithTheIssuerAudienceAndKeysTogether', () => {
    const args = ['--auth-issuer', 'https://idp.example', '--auth-audience', 'http://127.0.0.1:3000/mcp']
    const file = parseCli([...args, '--auth-jwks', 'keys/jwks.json'], {})
    expect(file.kind === 'run' && file.config.auth).toEqual({
      issuer: 'https://idp.example',
      audience: 'http://127.0.0.1:3000/mcp',
      jwks: resolve('keys/jwks.json'),
      dpop: false,
    })
    const remote = parseCli([...args, '--auth-jwks', 'https://idp.example/jwks', '--auth-dpop'], {})
    expect(remote.kind === 'run' && [remote.config.auth?.jwks, remote.config.auth?.dpop]).toEqual([
      'https://idp.example/jwks',
      true,
    ])
    expect(parseCli(args, {}).kind).toBe('error')
    expect(parseCli(['--auth-dpop'], {}).kind).toBe('error')
    expect(parseCli(['--stdio', ...args, '--auth-jwks', 'k.json'], {}).kind).toBe('error')
  })

  it('readsPortAndTesseraDataDirAndTheDataFlagWinsOverTheEnvironment', () => {
    const fromEnv = parseCli([], { PORT: '4100', TESSERA_DATA_DIR: '/tmp/ops-a' })
    expect(fromEnv.kind === 'run' && [fromEnv.config.port, fromEnv.config.dataDir]).toEqual([
      4100,
      '/tmp/ops-a',
    ])
    const flag = parseCli(['--data', '/tmp/ops-b'], { TESSERA_DATA_DIR: '/tmp/ops-a' })
    expect(flag.kind === 'run' && flag.config.store).toEqual({
      kind: 'sqlite',
      path: '/tmp/ops-b/ops.sqlite',
    })
  })

  it('selectsStdioWorkersAndTheSharedStores', () => {
    const stdio = parseCli(['--stdio'], {})
    expect(stdio.kind === 'run' && stdio.config.mode).toBe('stdio')
    const workers = parseCli(['--workers', '4', '--redis', 'redis://127.0.0.1:6379'], {})
    expect(workers.kind === 'run' && [workers.config.workers, workers.config.store]).toEqual([
      4,
      { kind: 'redis', url: 'redis://127.0.0.1:6379' },
    ])
  })

  it('refusesWhatCannotWorkTogetherOrAtAll', () => {
    expect(parseCli(['--stdio', '--workers', '2'], {}).kind).toBe('error')
    expect(parseCli(['--redis', 'redis://x', '--postgres', 'postgres://y'], {}).kind).toBe('error')
    expect(parseCli(['--workers', 'many'], {}).kind).toBe('error')
    expect(parseCli([], { PORT: '70000' }).kind).toBe('error')
    expect(parseCli(['--bogus'], {}).kind).toBe('error')
    expect(parseCli(['--help'], {}).kind).toBe('help')
  })
})
