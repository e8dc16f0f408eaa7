/**
 * Builds the development console's page into `dist/console/ui/` of the CLI package: one HTML
 * file and its hashed assets, everything bundled (Preact included), so the page works without a
 * network connection. `npm run build` runs it after the TypeScript build.
 */
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vite'

const UI = dirname(fileURLToPath(import.meta.url))

export default defineConfig({
  root: UI,
  base: '/_tessera/',
  logLevel: 'warn',
  build: {
    outDir: join(UI, '../dist/console/ui'),
    emptyOutDir: true,
    assetsDir: 'assets',
    // The console's own bundle: readable names help when something in it goes wrong.
    sourcemap: true,
  },
  esbuild: { jsx: 'automatic', jsxImportSource: 'preact' },
  resolve: {
    // The wire rules the page's client follows are core's own, and the sandbox of a view is
    // @tessera/apps' own, from their sources.
    alias: {
      '@tessera/core/protocol': join(UI, '../../core/src/protocol/index.ts'),
      '@tessera/apps': join(UI, '../../apps/src/index.ts'),
    },
  },
})
