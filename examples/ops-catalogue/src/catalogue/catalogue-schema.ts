/**
 * @module catalogue-schema
 * The shape of `data/ops.json`. The file is the seed of the deployment log, so it is checked for
 * the things the log will later rely on: unique service ids, a history in time order whose last
 * entry is the declared current version, and rollbacks only to versions deployed before.
 */
import { z } from 'zod'

const SERVICE_ID = /^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$/

export const deploymentKind = z.enum(['deploy', 'rollback'])

const seedDeployment = z.strictObject({
  kind: deploymentKind,
  version: z.string().min(1).max(64),
  at: z.iso.datetime({ offset: true }),
  by: z.string().min(1),
  note: z.string().optional(),
})

const runbook = z.strictObject({
  title: z.string().min(1),
  markdown: z.string().min(1),
})

const service = z
  .strictObject({
    id: z.string().regex(SERVICE_ID, 'must be kebab-case (a-z, 0-9, single hyphens)'),
    name: z.string().min(1),
    description: z.string().min(1),
    owner: z.strictObject({
      team: z.string().min(1),
      contact: z.string().min(1),
      email: z.email().optional(),
    }),
    tier: z.union([z.literal(1), z.literal(2), z.literal(3)]),
    currentVersion: z.string().min(1),
    health: z.strictObject({
      status: z.enum(['healthy', 'degraded', 'down']),
      checkedAt: z.iso.datetime({ offset: true }),
      note: z.string().optional(),
    }),
    deployments: z.array(seedDeployment).min(1),
    runbooks: z.array(runbook).min(1),
  })
  .superRefine((s, ctx) => {
    const deployed = new Set<string>()
    let previousAt = Number.NEGATIVE_INFINITY
    s.deployments.forEach((d, i) => {
      const at = Date.parse(d.at)
      if (at < previousAt)
        ctx.addIssue({
          code: 'custom',
          path: ['deployments', i, 'at'],
          message: 'deployments must be in time order',
        })
      previousAt = at
      if (i === 0 && d.kind === 'rollback') {
        ctx.addIssue({
          code: 'custom',
          path: ['deployments', i, 'kind'],
          message: 'a history cannot start with a rollback',
        })
      }
      if (d.kind === 'rollback' && !deployed.has(d.version)) {
        ctx.addIssue({
          code: 'custom',
          path: ['deployments', i, 'version'],
          message: `rollback to ${d.version}, which was never deployed before`,
        })
      }
      if (d.kind === 'deploy') deployed.add(d.version)
    })
    const last = s.deployments.at(-1)
    if (last !== undefined && last.version !== s.currentVersion) {
      ctx.addIssue({
        code: 'custom',
        path: ['currentVersion'],
        message: `is ${s.currentVersion} but the last deployment is ${last.version}`,
      })
    }
  })

export const catalogueFile = z
  .strictObject({
    name: z.string().min(1),
    updatedAt: z.iso.datetime({ offset: true }).optional(),
    services: z.array(service).min(1),
  })
  .superRefine((file, ctx) => {
    const seen = new Set<string>()
    file.services.forEach((s, i) => {
      if (seen.has(s.id))
        ctx.addIssue({
          code: 'custom',
          path: ['services', i, 'id'],
          message: `duplicate service id '${s.id}'`,
        })
      seen.add(s.id)
    })
  })

export type CatalogueFile = z.infer<typeof catalogueFile>
export type ServiceEntry = CatalogueFile['services'][number]
export type SeedDeployment = ServiceEntry['deployments'][number]
export type Runbook = ServiceEntry['runbooks'][number]
