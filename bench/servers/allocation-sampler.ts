/**
 * Loaded into a bench server by `bench/allocations.ts` (`--import`): V8's sampling heap profiler,
 * switched on and off by SIGUSR2, keeping the objects a scavenge or a full collection took as well
 * as the survivors, so the profile is where the bytes were allocated, not what stayed. On the
 * second signal it writes the profile to `ALLOCATIONS_OUT` and says so on stderr.
 */
import { writeFileSync } from 'node:fs'
import { Session } from 'node:inspector'

const session = new Session()
session.connect()
const post = <T>(method: string, params?: object) =>
  new Promise<T>((resolve, reject) =>
    session.post(method, params, (error, result) => (error ? reject(error) : resolve(result as T))),
  )

let sampling = false
process.on('SIGUSR2', () => {
  void (async () => {
    if (!sampling) {
      sampling = true
      await post('HeapProfiler.enable')
      await post('HeapProfiler.startSampling', {
        samplingInterval: Number(process.env.ALLOCATIONS_INTERVAL ?? 256),
        includeObjectsCollectedByMajorGC: true,
        includeObjectsCollectedByMinorGC: true,
      })
      process.stderr.write('ALLOCATIONS sampling\n')
      return
    }
    const { profile } = await post<{ profile: unknown }>('HeapProfiler.stopSampling')
    writeFileSync(process.env.ALLOCATIONS_OUT!, JSON.stringify(profile))
    process.stderr.write('ALLOCATIONS written\n')
  })()
})
