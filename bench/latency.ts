/** Exact latency percentiles (milliseconds, float) from every recorded sample. */
export class Latencies {
  private samples = new Float64Array(1 << 16)
  private n = 0

  add(ms: number): void {
    if (this.n === this.samples.length) {
      const bigger = new Float64Array(this.samples.length * 2)
      bigger.set(this.samples)
      this.samples = bigger
    }
    this.samples[this.n++] = ms
  }

  get count(): number {
    return this.n
  }

  summary(): { count: number; mean: number; p50: number; p99: number; max: number } {
    const n = this.n
    if (n === 0) return { count: 0, mean: 0, p50: 0, p99: 0, max: 0 }
    const sorted = this.samples.subarray(0, n).sort()
    const at = (q: number) => sorted[Math.min(n - 1, Math.max(0, Math.ceil(q * n) - 1))]!
    let sum = 0
    for (let i = 0; i < n; i++) sum += sorted[i]!
    return { count: n, mean: sum / n, p50: at(0.5), p99: at(0.99), max: sorted[n - 1]! }
  }
}
