import { join } from 'node:path'
import { defineConfig } from 'vitest/config'
import { WORKSPACE_ROOT, workspaceImports, workspaceSources } from './test/workspace-sources.ts'

export default defineConfig({
  resolve: {
    // Exact matches only: '@tessera/core' must not capture '@tessera/core/http'. Subpath imports
    // (`#crypto`) reach the sources of their Node build, not a build in `dist/`.
    alias: [...workspaceSources(), ...workspaceImports()].map(([specifier, source]) => ({
      find: new RegExp(`^${specifier.replaceAll('/', '\\/')}$`),
      replacement: join(WORKSPACE_ROOT, source),
    })),
  },
  test: {
    // Child processes run through tsx resolve `@tessera/*` by the root tsconfig's paths, to
    // sources, whatever their working directory.
    env: { TSX_TSCONFIG_PATH: join(WORKSPACE_ROOT, 'tsconfig.json') },
    include: [
      'packages/*/src/**/*.test.ts',
      // The development console's page: its modules that need no browser.
      'packages/cli/ui/src/**/*.test.ts',
      'examples/*/src/**/*.test.ts',
      'examples/*/test/**/*.test.ts',
      'test/**/*.test.ts',
    ],
    // Tarballs installed outside the repository: `npm run test:packaging`.
    exclude: ['test/packaging/**', '**/node_modules/**'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
    pool: 'forks',
  },
})
