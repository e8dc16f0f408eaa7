/**
 * @module fetch-skill.test
 * `tessera inspect` and `tessera call --skill` against a server with skills and views: the offer
 * lists the skills and the view each tool is shown with; a skill's SKILL.md is printed once it
 * matches the digest its listing gives, and refused when it does not.
 */
import { appsExtension } from '@tessera/apps'
import { createServer } from '@tessera/core'
import type { Extension } from '@tessera/core/extension'
import { listen, type RunningServer } from '@tessera/core/http'
import { SKILLS_EXTENSION } from '@tessera/core/protocol'
import { skillsExtension } from '@tessera/skills'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runCli } from '../run-cli.fixture.ts'

const ROLLBACK_MD =
  '---\nname: rollback\ndescription: Roll a service back safely\n---\n\n# Rollback\n\nDrain first.\n'
let running: RunningServer
let forged: RunningServer

beforeAll(async () => {
  const server = createServer({
    name: 'skilled',
    version: '1.0.0',
    extensions: [
      skillsExtension({ skills: [{ path: 'ops/rollback', files: { 'SKILL.md': ROLLBACK_MD } }] }),
      appsExtension({
        views: [{ uri: 'ui://ops/status', name: 'Status view', html: '<!doctype html><p>ok</p>' }],
      }),
    ],
  })
  server.tool(
    'status',
    { description: 'Service status', ui: { resourceUri: 'ui://ops/status' } },
    () => 'green',
  )
  running = await listen(server, { port: 0 })
  forged = await listen(forgedSkillServer(), { port: 0 })
})
afterAll(async () => {
  await running.close()
  await forged.close()
})

/** A server whose listing promises one SKILL.md and whose resource serves another. */
function forgedSkillServer() {
  const uri = 'skill://rollback/SKILL.md'
  const listing: Extension = {
    id: SKILLS_EXTENSION,
    methods: {
      'skills/list': {
        run: () => ({
          skills: [
            {
              uri,
              frontmatter: { name: 'rollback', description: 'Roll back' },
              resources: [{ uri, digest: `sha256:${'0'.repeat(64)}`, size: Buffer.byteLength(ROLLBACK_MD) }],
            },
          ],
          ttlMs: 0,
          cacheScope: 'private',
        }),
      },
    },
  }
  const server = createServer({ name: 'forged', version: '1.0.0', extensions: [listing] })
  server.resource(uri, { name: 'rollback' }, () => ({ contents: [{ uri, text: ROLLBACK_MD }] }))
  return server
}

describe('tessera inspect and call --skill with skills and views', () => {
  it('inspectListsTheSkillsAndTheViewEachToolIsShownWith', async () => {
    const { code, stdout } = await runCli(['inspect', running.url])
    expect(code).toBe(0)
    expect(stdout).toMatch(
      /Skills \(1\)\n\s+rollback\s+skill:\/\/ops\/rollback\/SKILL\.md, 1 files\n\s+Roll a service back safely/,
    )
    expect(stdout).toMatch(/Views \(1\)\n\s+ui:\/\/ops\/status\s+Status view/)
    expect(stdout).toMatch(/status\n\s+Service status\n\s+view: ui:\/\/ops\/status/)
  })

  it('printsASkillByNameOnceItMatchesItsDigest', async () => {
    const { code, stdout } = await runCli(['call', running.url, '--skill', 'rollback'])
    expect(code).toBe(0)
    expect(stdout).toBe(ROLLBACK_MD)
    const byUri = await runCli(['call', running.url, '--skill', 'skill://ops/rollback/SKILL.md'])
    expect(byUri.stdout).toBe(ROLLBACK_MD)
  })

  it('refusesASkillThatDoesNotMatchItsListingAndNamesAnUnknownOnesAlternatives', async () => {
    const tampered = await runCli(['call', forged.url, '--skill', 'rollback'])
    expect(tampered.code).toBe(1)
    expect(tampered.stdout).toBe('')
    expect(tampered.stderr).toContain(
      'skill://rollback/SKILL.md does not match the digest of its listing: not printed.',
    )
    const unknown = await runCli(['call', running.url, '--skill', 'deploy'])
    expect(unknown.code).toBe(64)
    expect(unknown.stderr).toContain("The server has no skill 'deploy' (skills: rollback).")
  })
})
