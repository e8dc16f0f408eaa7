/**
 * @module main
 * The ops catalogue's view (MCP Apps): shown beside `service_status`, it shows the service's
 * health and deployment history through the host, and rolls it back through `rollback` without a
 * version, so the host asks the person the same question the model's call would, and the
 * single-use guard holds the answer to one rollback.
 */
import { App } from '@modelcontextprotocol/ext-apps'
import { type HistoryContent, renderHistory, renderStatus, type StatusContent } from './render.ts'

const app = new App({ name: 'ops-catalogue-view', version: '1.0.0' })
const outcome = document.querySelector<HTMLParagraphElement>('#outcome')!
const rollbackButton = document.querySelector<HTMLButtonElement>('#rollback')!
let service: string | undefined

async function call<T>(name: string, args: Record<string, unknown>): Promise<T> {
  const result = await app.callServerTool({ name, arguments: args })
  const text = result.content?.find((block) => block.type === 'text')
  if (result.isError) throw new Error(text && 'text' in text ? text.text : `${name} failed`)
  return result.structuredContent as T
}

async function refresh(): Promise<void> {
  if (service === undefined) return
  renderStatus(await call<StatusContent>('service_status', { service }))
  renderHistory(await call<HistoryContent>('deployment_history', { service }))
  rollbackButton.hidden = false
}

async function rollBack(): Promise<void> {
  if (service === undefined) return
  rollbackButton.disabled = true
  outcome.textContent = 'Asking which version…'
  outcome.className = ''
  try {
    const done = await call<{ outcome: string; from?: string; to?: string }>('rollback', { service })
    outcome.textContent =
      done.outcome === 'rolled_back'
        ? `Rolled back from ${done.from} to ${done.to}.`
        : `Nothing was done: the rollback was ${done.outcome}.`
    await refresh()
  } catch (error) {
    outcome.textContent = (error as Error).message
    outcome.className = 'error'
  } finally {
    rollbackButton.disabled = false
  }
}

rollbackButton.addEventListener('click', () => void rollBack())
app.ontoolinput = ({ arguments: args }) => {
  if (typeof args?.service !== 'string') return
  service = args.service
  refresh().catch((error: unknown) => {
    outcome.textContent = (error as Error).message
    outcome.className = 'error'
  })
}
await app.connect()
