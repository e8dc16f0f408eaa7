import { defineConfig } from 'vitest/config'

// The packaging tests: tarballs installed into projects outside the repository. Slow (npm
// installs), so not part of `npm test`; `npm run test:packaging` builds first. No aliases: what
// they test is what npm installs.
export default defineConfig({
  test: {
    include: ['test/packaging/**/*.test.ts'],
    testTimeout: 300_000,
    hookTimeout: 300_000,
    pool: 'forks',
    fileParallelism: false,
  },
})
