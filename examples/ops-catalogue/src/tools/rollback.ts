/**
 * @module rollback
 * `rollback`: returns a service to an earlier version, asking first when no version is named.
 *
 * The handler runs again from the top when the answer comes back, so everything above the ask
 * only reads. The question is built from what the handler reads (the current version and the
 * earlier ones): if the history moved between the question and the answer, the question is no
 * longer the one answered, and the person is asked again about what is true now. The answer's
 * action is read before its content: a decline or a cancel ends the call and says nothing was
 * done, whatever came with it. The rollback is appended only if the head it was decided on is
 * still the head when it is written. Its log entry, with who asked, is settled before the rollout
 * starts: once the rollout has run, appending it is the only step left, so nothing of the caller's
 * making can fail between the work and its record.
 *
 * `singleUse: true` puts every answered round under the framework's single-use guard: the nonce
 * of the sealed state is claimed before this handler runs, so one answer rolls back once, however
 * often and wherever it is re-sent. A call that names `version` carries no state and no nonce: it
 * is an ordinary call, checked against the current history and nothing more.
 *
 * The guard cannot see inside the work: a worker killed after the rollback reached the log but
 * before its record said done leaves the answer claimable again once the lease runs out. So the
 * rollback is written with the answer's `ctx.request.idempotencyKey` in the same step, and a handler run
 * again for that answer looks the key up first: it finds its own rollback and reports it, as the
 * first run would have, instead of acting again or saying nothing was done.
 *
 * A rollback takes time (`rollbackMs`: draining, switching, verifying). For a client that declared
 * the tasks extension the call becomes a task once the question is answered: the client gets a
 * task id at once and polls; a duplicate of the answer gets the same task. Cancelling the task
 * before the switch leaves the service as it was. Any other client waits, with progress.
 */
import { elicitForm, type McpServer, type RequestContext, type ToolResult } from '@tessera/core'
import { z } from 'zod'
import type { ServiceEntry } from '../catalogue/catalogue-schema.ts'
import type { Deployment, NewDeployment } from '../deployments/deployment-log.ts'
import { earlierVersions, headOf } from '../deployments/release-history.ts'
import { oneLine } from '../one-line.ts'
import { CATALOGUE_URI } from '../resources/catalogue-resource.ts'
import type { OpsDeps } from '../server/ops-deps.ts'
import { deploymentShape, serviceArgument, toolError, unknownService } from './tool-results.ts'

/** The key of the one question this tool asks; the client answers under it. */
export const VERSION_QUESTION = 'version'

const output = z.object({
  service: z.string(),
  outcome: z.enum(['rolled_back', 'declined', 'cancelled']),
  from: z.string().optional(),
  to: z.string().optional(),
  deployment: deploymentShape.optional(),
})
type RollbackResult = ToolResult<typeof output>

export function registerRollback(app: McpServer, deps: OpsDeps): void {
  app.tool(
    'rollback',
    {
      title: 'Roll a service back',
      scopes: deps.scopes.rollback,
      description:
        'Rolls a service back to an earlier version. Without `version` it asks which one, offering the earlier ' +
        'versions, and acts only on an accepted answer, once.',
      input: z.object({
        service: serviceArgument,
        version: z
          .string()
          .min(1)
          .max(64)
          .optional()
          .describe('The earlier version to return to. Omit it to be asked, with the choices offered.'),
      }),
      output,
      annotations: { destructiveHint: true, idempotentHint: false, openWorldHint: false },
      singleUse: true,
      task: { support: 'optional', start: 'handler' },
    },
    async ({ service, version }, ctx): Promise<RollbackResult> => {
      const entry = deps.catalogue.get(service)
      if (entry === undefined) return unknownService(deps.catalogue, service)
      const key = ctx.request.idempotencyKey
      const earlier = key === undefined ? undefined : await deps.log.byRequestKey(key)
      if (earlier !== undefined) return rolledBack(deps, entry, earlier, undefined)
      const history = await deps.log.history(service)
      const head = headOf(history)
      if (head === undefined) throw new Error(`the deployment log has no history for ${service}`)
      const offered = earlierVersions(history)
      if (version !== undefined) {
        return rollBack(deps, entry, { to: version, allowed: offered, head, ctx, how: 'named in the call' })
      }
      const [newest, ...older] = offered
      if (newest === undefined) return toolError(`${service} has no earlier version to roll back to.`)
      const answer = await ctx.ask(VERSION_QUESTION, versionQuestion(entry, head.version, [newest, ...older]))
      if (answer.action !== 'accept') {
        const outcome = answer.action === 'decline' ? 'declined' : 'cancelled'
        return {
          content: [{ type: 'text', text: `Nothing was done: the rollback of ${service} was ${outcome}.` }],
          structuredContent: { service, outcome },
        }
      }
      return rollBack(deps, entry, {
        to: answer.content.version,
        allowed: offered,
        head,
        ctx,
        how: 'accepted in an elicitation',
      })
    },
  )
}

/** The form: one choice among the earlier versions, so the answer's content is typed and checked. */
function versionQuestion(entry: ServiceEntry, current: string, offered: [string, ...string[]]) {
  return elicitForm({
    message: `Roll ${entry.name} (${entry.id}) back from ${current}? Choose the version to return to.`,
    schema: z.object({
      [VERSION_QUESTION]: z
        .enum(offered)
        .meta({ title: 'Version', description: `An earlier release of ${entry.id}, newest first.` }),
    }),
  })
}

interface RollbackPlan {
  to: string
  /** The versions this call may return to. */
  allowed: readonly string[]
  /** The head the decision was made against. */
  head: Pick<Deployment, 'id' | 'version'>
  ctx: RequestContext
  how: string
}

async function rollBack(deps: OpsDeps, entry: ServiceEntry, plan: RollbackPlan): Promise<RollbackResult> {
  const { to, head } = plan
  if (!plan.allowed.includes(to)) {
    const choices = plan.allowed.length > 0 ? plan.allowed.join(', ') : 'none'
    return toolError(
      `${oneLine(to, 64)} is not an earlier version of ${entry.id} (running ${head.version}; earlier versions: ${choices}). Nothing was done.`,
    )
  }
  const record: NewDeployment = {
    service: entry.id,
    kind: 'rollback',
    version: to,
    previousVersion: head.version,
    by: requester(plan.ctx),
    note: plan.how,
    ...(plan.ctx.request.idempotencyKey === undefined ? {} : { requestKey: plan.ctx.request.idempotencyKey }),
  }
  await plan.ctx.startTask()
  await rollingOut(deps, entry, plan)
  const appended = await deps.log.append(record, head.id)
  if (!appended.ok) {
    const now = appended.head
      ? `${appended.head.version} (${appended.head.kind} at ${appended.head.at})`
      : 'unknown'
    return toolError(
      `${entry.id} changed after this rollback was decided: it now runs ${now}. Nothing was done; call rollback again to decide afresh.`,
    )
  }
  if (appended.earlier) return rolledBack(deps, entry, appended.deployment, undefined)
  deps.afterCommit?.()
  // The catalogue shows every service's current version: its readers should read it again.
  deps.resourceChanged(CATALOGUE_URI)
  return rolledBack(deps, entry, appended.deployment, plan.how)
}

/**
 * The answer for a rollback in the log: written by this run (`how` says how it was decided), or
 * by an earlier run of the same answer (`how` undefined), which is reported as that run would have.
 */
function rolledBack(
  deps: OpsDeps,
  entry: ServiceEntry,
  d: Deployment,
  how: string | undefined,
): RollbackResult {
  const from = d.previousVersion ?? 'unknown'
  const fields = { service: entry.id, from, to: d.version, deployment: d.id }
  if (how === undefined) {
    deps.logger.info({ event: 'rollback_found', ...fields }, 'this answer was acted on by an earlier run')
  } else {
    deps.logger.info({ event: 'rollback', ...fields, how }, 'service rolled back')
  }
  return {
    content: [
      {
        type: 'text',
        text: `Rolled ${entry.id} back from ${from} to ${d.version} (deployment #${d.seq}, ${d.id}).`,
      },
    ],
    structuredContent: { service: entry.id, outcome: 'rolled_back', from, to: d.version, deployment: d },
  }
}

/** The steps of a rollout, each a share of `rollbackMs`; a cancel before the switch stops it. */
const STEPS = ['Draining traffic from', 'Switching', 'Verifying the health of'] as const

async function rollingOut(deps: OpsDeps, entry: ServiceEntry, plan: RollbackPlan): Promise<void> {
  const { ctx } = plan
  const each = deps.rollbackMs / STEPS.length
  for (const [done, step] of STEPS.entries()) {
    const message = `${step} ${entry.id} (${plan.head.version} → ${plan.to})`
    ctx.task?.status(message)
    ctx.progress(done, STEPS.length, message)
    if (each > 0) await pause(each, ctx.signal)
  }
  ctx.progress(STEPS.length, STEPS.length, `${entry.id} runs ${plan.to}`)
}

/** Waits `ms`; rejects with the signal's reason as soon as it aborts (a cancelled task). */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason)
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', stop)
      resolve()
    }, ms)
    const stop = () => {
      clearTimeout(timer)
      reject(signal.reason)
    }
    signal.addEventListener('abort', stop, { once: true })
  })
}

/** The most characters of a subject or client name the log keeps. */
const REQUESTER_MAX = 128

/**
 * Who asked, for the audit trail: the token's subject, or else the name the client gives itself,
 * which proves nothing and is never used to decide anything. Both are chosen outside this server,
 * so both go in on one line and cut short (`oneLine`): a name cannot add an entry of its own
 * making to the history a model reads. A caller that names itself with nothing usable is
 * `mcp:anonymous`.
 */
function requester(ctx: RequestContext): string {
  const subject = ctx.auth?.subject
  const shownSubject = typeof subject === 'string' ? oneLine(subject, REQUESTER_MAX) : ''
  if (shownSubject !== '') return shownSubject
  const name = ctx.client.info?.name
  const shownName = typeof name === 'string' ? oneLine(name, REQUESTER_MAX - 'mcp:'.length) : ''
  return `mcp:${shownName === '' ? 'anonymous' : shownName}`
}
