/**
 * @module update-api-report
 * `npm run api:update`: rewrites the committed API report after an intended change of the surface.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { API_DIR, allReports } from './api-report.ts'

mkdirSync(API_DIR, { recursive: true })
for (const [file, text] of allReports()) {
  writeFileSync(file, text)
  process.stdout.write(`wrote ${file}\n`)
}
