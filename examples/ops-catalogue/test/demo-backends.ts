/**
 * @module demo-backends
 * The shared stores a cluster test runs the demo on: SQLite always, Redis and PostgreSQL when
 * their test URLs are set (the others are skipped, and the reason is printed once, naming the
 * suite).
 */

/** One backend: the demo's flags for it, or why it cannot run here. */
export interface DemoBackend {
  name: 'sqlite' | 'redis' | 'postgres'
  flags: string[]
  skip?: string
}

/** The backends of `suite`, with the reason each skipped one cannot run printed on stderr. */
export function demoBackends(suite: string): DemoBackend[] {
  const redis = process.env['TESSERA_TEST_REDIS_URL']
  const postgres = process.env['TESSERA_TEST_POSTGRES_URL']
  const backends: DemoBackend[] = [
    { name: 'sqlite', flags: [] },
    redis
      ? { name: 'redis', flags: ['--redis', redis] }
      : { name: 'redis', flags: [], skip: 'TESSERA_TEST_REDIS_URL is not set' },
    postgres
      ? { name: 'postgres', flags: ['--postgres', postgres] }
      : { name: 'postgres', flags: [], skip: 'TESSERA_TEST_POSTGRES_URL is not set' },
  ]
  for (const b of backends) if (b.skip) process.stderr.write(`${suite} ${b.name} skipped: ${b.skip}\n`)
  return backends
}
