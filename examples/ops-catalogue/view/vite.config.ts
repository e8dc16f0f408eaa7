/**
 * Builds the ops catalogue's view into one self-contained file, `dist/index.html`: the script
 * bundled (the ext-apps view side included) and inlined into the page, so a host can render it
 * in a sandboxed frame that reaches nothing. `npm run build` runs it.
 */
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { defineConfig, type Plugin } from 'vite'

const VIEW = dirname(fileURLToPath(import.meta.url))

/** Moves every emitted script into the page that loads it, and drops the script files. */
function inlineScripts(): Plugin {
  return {
    name: 'tessera-inline-scripts',
    enforce: 'post',
    generateBundle(_options, bundle) {
      for (const page of Object.values(bundle)) {
        if (page.type !== 'asset' || !page.fileName.endsWith('.html')) continue
        let html = String(page.source)
        for (const [name, chunk] of Object.entries(bundle)) {
          if (chunk.type !== 'chunk') continue
          // One chunk, loaded by the page: anything else would be fetched, and the frame fetches nothing.
          if (!chunk.isEntry) this.error(`the view must build to one script; ${chunk.fileName} is another`)
          const tag = new RegExp(`<script type="module" crossorigin src="[^"]*${chunk.fileName}"></script>`)
          // A function replacement: `$` in the code is not a replacement pattern.
          html = html.replace(
            tag,
            () => `<script type="module">${chunk.code.replaceAll('</script', '<\\/script')}</script>`,
          )
          delete bundle[name]
        }
        page.source = html
      }
    },
  }
}

export default defineConfig({
  root: VIEW,
  base: './',
  logLevel: 'warn',
  plugins: [inlineScripts()],
  build: {
    outDir: join(VIEW, 'dist'),
    emptyOutDir: true,
    target: 'es2022',
    modulePreload: false,
    assetsInlineLimit: Number.MAX_SAFE_INTEGER,
    cssCodeSplit: false,
    rollupOptions: { input: join(VIEW, 'index.html'), output: { codeSplitting: false } },
  },
})
