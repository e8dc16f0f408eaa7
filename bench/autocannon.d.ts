// Minimal types for the parts of autocannon 8 (no bundled types) that bench/run.ts uses.
declare module 'autocannon' {
  /** One request of the sequence each connection sends in turn, sharing `context` along it. */
  interface AutocannonRequest {
    method?: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH'
    path?: string
    headers?: Record<string, string>
    body?: string | Buffer
    /** Rewrites the request just before it is sent. */
    setupRequest?: (request: AutocannonRequest, context: Record<string, unknown>) => AutocannonRequest
    onResponse?: (status: number, body: string, context: Record<string, unknown>) => void
  }
  interface AutocannonOptions {
    url: string
    method?: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH'
    headers?: Record<string, string>
    body?: string | Buffer
    /** Sent in turn instead of `method`, `headers` and `body`. */
    requests?: AutocannonRequest[]
    connections?: number
    /** seconds */
    duration?: number
    pipelining?: number
    /** seconds */
    timeout?: number
  }
  interface Histogram {
    average: number
    mean: number
    stddev: number
    min: number
    max: number
    p50: number
    p90: number
    p97_5: number
    p99: number
    p99_9: number
  }
  interface AutocannonResult {
    /** seconds */
    duration: number
    errors: number
    timeouts: number
    mismatches: number
    non2xx: number
    resets: number
    '2xx': number
    statusCodeStats: Record<string, { count: number }>
    /** milliseconds, 2xx responses only, whole-millisecond resolution (hdr histogram of integers) */
    latency: Histogram & { totalCount: number }
    /** per-second samples; total = completed requests */
    requests: Histogram & { total: number; sent: number }
    throughput: Histogram & { total: number }
  }
  /** The running load: awaitable for the result, and an event emitter while it runs. */
  interface AutocannonInstance extends PromiseLike<AutocannonResult> {
    /** Every response; responseTime in milliseconds (float). */
    on(
      event: 'response',
      listener: (client: unknown, statusCode: number, resBytes: number, responseTime: number) => void,
    ): this
  }
  function autocannon(options: AutocannonOptions): AutocannonInstance
  export = autocannon
}
