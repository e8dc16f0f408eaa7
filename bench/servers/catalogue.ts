/**
 * The 49 tools beside `echo` that make `tools/list` a 50-tool catalogue, as a real server lists
 * it. Every bench server registers them (each with its own zod), so every `tools/list` answer is
 * the same size; the raw server answers Tessera's bytes (`bench/requests/answers.json`).
 */
export interface CatalogueTool {
  name: string
  description: string
}

export const CATALOGUE_TOOLS: readonly CatalogueTool[] = Array.from({ length: 49 }, (_, i) => {
  const n = String(i + 1).padStart(2, '0')
  return {
    name: `lookup_${n}`,
    description: `Looks up one record of table ${n} by its id, with at most \`limit\` related rows`,
  }
})
