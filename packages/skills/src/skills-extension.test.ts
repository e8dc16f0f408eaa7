/**
 * @module skills-extension.test
 * The skills extension as a client meets it: the listing with a digest and size per file, pages
 * that never split a skill, one skill by URI, files as resources, folders listed, and a broken
 * skill refused before the server starts, naming the skill and the rule.
 */
import { createHash } from 'node:crypto'
import { createServer, type McpServer } from '@tessera/core'
import { createTestClient, type TestClient } from '@tessera/core/testing'
import { load } from 'js-yaml'
import { describe, expect, it } from 'vitest'
import { SKILLS_EXTENSION, type SkillSource, type SkillsOptions, skillsExtension } from './index.ts'

const PDF_MD = `---
name: pdf-processing
description: Extract, fill, and assemble PDF documents
license: Apache-2.0
metadata:
  author: example
  tags: [pdf, forms]
---

# PDF processing

Read references/FORMS.md before filling a form.
`
const FORMS_MD = '# Forms\n\nFill each field.\n'
const LOGO = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x00, 0xff, 0xfe])

const pdf: SkillSource = {
  files: { 'SKILL.md': PDF_MD, 'references/FORMS.md': FORMS_MD, 'assets/logo.png': LOGO },
}
const skillMd = (name: string, description = `The ${name} skill`) =>
  `---\nname: ${name}\ndescription: ${description}\n---\n\nBody of ${name}.\n`

function serve(options: Partial<SkillsOptions> = {}, pageSize?: number): McpServer {
  return createServer({
    name: 'skills',
    version: '1.0.0',
    ...(pageSize === undefined ? {} : { pageSize }),
    extensions: [skillsExtension({ skills: [pdf], ...options })],
  })
}

const sha256 = (bytes: string | Uint8Array) => `sha256:${createHash('sha256').update(bytes).digest('hex')}`

async function everyPage(client: TestClient, method: string, params: Record<string, unknown> = {}) {
  const pages: Record<string, unknown>[] = []
  let cursor: unknown
  do {
    const page = await client.request(method, cursor === undefined ? params : { ...params, cursor })
    pages.push(page)
    cursor = page.nextCursor
  } while (cursor !== undefined)
  return pages
}

describe('skills extension', () => {
  it('advertisesItselfWithDirectoryReadAndTheResourcesItsFilesAre', async () => {
    const { capabilities } = await createTestClient(serve()).request('server/discover')
    expect(capabilities).toMatchObject({
      resources: {},
      extensions: { [SKILLS_EXTENSION]: { directoryRead: true } },
    })
  })

  it('listsEachSkillWithItsFrontmatterAndTheDigestAndSizeOfEveryFile', async () => {
    const listed = await createTestClient(serve()).request('skills/list')
    expect(listed).toMatchObject({ ttlMs: 300_000, cacheScope: 'public' })
    expect(listed.nextCursor).toBeUndefined()
    expect(listed.skills).toEqual([
      {
        uri: 'skill://pdf-processing/SKILL.md',
        frontmatter: load(PDF_MD.split('---')[1]!),
        resources: [
          { uri: 'skill://pdf-processing/SKILL.md', digest: sha256(PDF_MD), size: Buffer.byteLength(PDF_MD) },
          { uri: 'skill://pdf-processing/assets/logo.png', digest: sha256(LOGO), size: LOGO.length },
          {
            uri: 'skill://pdf-processing/references/FORMS.md',
            digest: sha256(FORMS_MD),
            size: FORMS_MD.length,
          },
        ],
      },
    ])
  })

  it('pagesTheListingOneWholeSkillAtATime', async () => {
    const skills = ['alpha', 'beta', 'gamma'].map((name) => ({
      files: { 'SKILL.md': skillMd(name), 'notes.md': `notes of ${name}` },
    }))
    const pages = await everyPage(createTestClient(serve({ skills }, 1)), 'skills/list')
    expect(
      pages.map((page) =>
        (page.skills as { uri: string; resources: unknown[] }[]).map((s) => [s.uri, s.resources.length]),
      ),
    ).toEqual([
      [['skill://alpha/SKILL.md', 2]],
      [['skill://beta/SKILL.md', 2]],
      [['skill://gamma/SKILL.md', 2]],
    ])
    await expect(
      createTestClient(serve({ skills })).request('skills/list', { cursor: 'forged' }),
    ).rejects.toMatchObject({
      code: -32602,
    })
  })

  it('getsOneSkillByTheUriOfItsSkillMdAndRefusesAnyOtherUriWithInvalidParams', async () => {
    const client = createTestClient(serve())
    const got = await client.request('skills/get', { uri: 'skill://pdf-processing/SKILL.md' })
    const listed = await client.request('skills/list')
    expect(got.skill).toEqual((listed.skills as unknown[])[0])
    expect(got).toMatchObject({ ttlMs: 300_000, cacheScope: 'public' })
    expect(got.nextCursor).toBeUndefined()
    for (const uri of [
      'skill://mcp-conformance-nonexistent-skill-9f3a2b/SKILL.md',
      'skill://pdf-processing',
      42,
    ]) {
      await expect(client.request('skills/get', { uri })).rejects.toMatchObject({ code: -32602 })
    }
  })

  it('servesEachFileAsAResourceTheSkillMdUnderTheSkillsNameAndDescription', async () => {
    const client = createTestClient(serve())
    const { resources } = await client.request('resources/list')
    expect(resources).toContainEqual({
      uri: 'skill://pdf-processing/SKILL.md',
      name: 'pdf-processing',
      description: 'Extract, fill, and assemble PDF documents',
      mimeType: 'text/markdown',
      size: Buffer.byteLength(PDF_MD),
    })
    const manifest = await client.readResource('skill://pdf-processing/SKILL.md')
    expect(manifest.contents).toEqual([
      { uri: 'skill://pdf-processing/SKILL.md', mimeType: 'text/markdown', text: PDF_MD },
    ])
    const logo = await client.readResource('skill://pdf-processing/assets/logo.png')
    expect(logo.contents).toEqual([
      {
        uri: 'skill://pdf-processing/assets/logo.png',
        mimeType: 'image/png',
        blob: Buffer.from(LOGO).toString('base64'),
      },
    ])
  })

  it('listsTheDirectChildrenOfASkillFolderAndRefusesAFileOrAnUnknownFolder', async () => {
    const client = createTestClient(serve())
    const root = await client.request('resources/directory/read', { uri: 'skill://pdf-processing' })
    expect(root.resources).toEqual([
      {
        uri: 'skill://pdf-processing/SKILL.md',
        name: 'SKILL.md',
        mimeType: 'text/markdown',
        size: Buffer.byteLength(PDF_MD),
      },
      { uri: 'skill://pdf-processing/assets', name: 'assets', mimeType: 'inode/directory' },
      { uri: 'skill://pdf-processing/references', name: 'references', mimeType: 'inode/directory' },
    ])
    const references = await client.request('resources/directory/read', {
      uri: 'skill://pdf-processing/references/',
    })
    expect(references.resources).toEqual([
      {
        uri: 'skill://pdf-processing/references/FORMS.md',
        name: 'FORMS.md',
        mimeType: 'text/markdown',
        size: FORMS_MD.length,
      },
    ])
    for (const uri of ['skill://pdf-processing/SKILL.md', 'skill://other', 'file:///etc']) {
      await expect(client.request('resources/directory/read', { uri })).rejects.toMatchObject({
        code: -32602,
      })
    }
  })

  it('pagesAFolderByTheServersPageSize', async () => {
    const files = Object.fromEntries(['a', 'b', 'c', 'd', 'e'].map((n) => [`${n}.md`, n]))
    const skills = [{ files: { 'SKILL.md': skillMd('many'), ...files } }]
    const pages = await everyPage(createTestClient(serve({ skills }, 2)), 'resources/directory/read', {
      uri: 'skill://many',
    })
    expect(pages.flatMap((page) => (page.resources as { name: string }[]).map((r) => r.name))).toEqual([
      'SKILL.md',
      'a.md',
      'b.md',
      'c.md',
      'd.md',
      'e.md',
    ])
  })

  it('withoutDirectoryReadAdvertisesAnEmptyObjectAndHasNoFolderMethod', async () => {
    const client = createTestClient(serve({ directoryRead: false }))
    const { capabilities } = await client.request('server/discover')
    expect((capabilities as { extensions: unknown }).extensions).toEqual({ [SKILLS_EXTENSION]: {} })
    await expect(
      client.request('resources/directory/read', { uri: 'skill://pdf-processing' }),
    ).rejects.toMatchObject({
      code: -32601,
    })
  })

  it('servesASkillAtANestedPathWhoseLastSegmentIsItsName', async () => {
    const skills = [{ path: 'acme/billing/refunds', files: { 'SKILL.md': skillMd('refunds') } }]
    const client = createTestClient(serve({ skills }))
    const got = await client.request('skills/get', { uri: 'skill://acme/billing/refunds/SKILL.md' })
    expect((got.skill as { frontmatter: unknown }).frontmatter).toEqual({
      name: 'refunds',
      description: 'The refunds skill',
    })
  })

  it('refusesABrokenSkillNamingTheSkillAndTheRule', () => {
    const refused = (source: SkillSource) => () => skillsExtension({ skills: [source] })
    expect(refused({ files: { 'README.md': 'x' } })).toThrow(
      'A skill: needs a SKILL.md at the root of its files.',
    )
    expect(refused({ files: { 'SKILL.md': '# no frontmatter' } })).toThrow(
      'A skill: SKILL.md must begin with YAML frontmatter between --- lines.',
    )
    expect(refused({ path: 'ops/rollback', files: { 'SKILL.md': skillMd('roll-back') } })).toThrow(
      "Skill 'ops/rollback': the last segment of its path must be its name 'roll-back'.",
    )
    expect(refused({ files: { 'SKILL.md': skillMd('Bad--Name') } })).toThrow(
      /name 'Bad--Name' must be 1-64 lowercase/,
    )
    expect(refused({ files: { 'SKILL.md': '---\nname: x\n---\n' } })).toThrow(
      'its frontmatter needs a description',
    )
    const reserved = '---\nname: x\ndescription: d\nmetadata:\n  io.modelcontextprotocol/mine: 1\n---\n'
    expect(refused({ files: { 'SKILL.md': reserved } })).toThrow(
      "Skill 'x': metadata key 'io.modelcontextprotocol/mine' uses the prefix io.modelcontextprotocol/",
    )
    expect(refused({ files: { 'SKILL.md': skillMd('x'), '../escape.md': 'x' } })).toThrow(
      "Skill 'x': file path '../escape.md' must be relative",
    )
    const many = Object.fromEntries(Array.from({ length: 512 }, (_, i) => [`f${i}.md`, 'x']))
    expect(refused({ files: { 'SKILL.md': skillMd('x'), ...many } })).toThrow(
      "Skill 'x': has 513 files, more than 512.",
    )
    const huge = new Uint8Array(16 * 1024 * 1024)
    expect(refused({ files: { 'SKILL.md': skillMd('x'), 'big.bin': huge } })).toThrow(
      "Skill 'x': its files add up to more than 16777216 bytes (16 MiB).",
    )
    const twice = { files: { 'SKILL.md': skillMd('x') } }
    expect(() => skillsExtension({ skills: [twice, twice] })).toThrow(
      "Skill 'x': another skill is served at skill://x/SKILL.md.",
    )
    expect(() => skillsExtension({ skills: [], directoryread: true } as never)).toThrow(/directoryread/)
  })
})
