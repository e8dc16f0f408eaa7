/**
 * @module render
 * What the view draws from the tools' structured results: the status line and the history table.
 */

/** `service_status`'s structured result, as far as the view reads it. */
export interface StatusContent {
  service: string
  name: string
  currentVersion: string
  health: { status: 'healthy' | 'degraded' | 'down'; note?: string }
  owner: { team: string }
}

/** `deployment_history`'s structured result, as far as the view reads it. */
export interface HistoryContent {
  deployments: { seq: number; kind: string; version: string; at: string; by: string }[]
}

export function renderStatus(status: StatusContent): void {
  document.querySelector('#title')!.textContent = `${status.name} (${status.service})`
  const line = document.querySelector('#status')!
  const health = document.createElement('span')
  health.className = `health ${status.health.status}`
  health.textContent = status.health.status
  line.replaceChildren(
    health,
    ` running ${status.currentVersion}, owned by ${status.owner.team}`,
    status.health.note === undefined ? '' : `: ${status.health.note}`,
  )
}

export function renderHistory(history: HistoryContent): void {
  const table = document.querySelector<HTMLTableElement>('#history')!
  const rows = history.deployments.map((deployment) => {
    const row = document.createElement('tr')
    for (const value of [
      String(deployment.seq),
      deployment.kind,
      deployment.version,
      deployment.at,
      deployment.by,
    ]) {
      const cell = document.createElement('td')
      cell.textContent = value
      row.append(cell)
    }
    return row
  })
  table.tBodies[0]!.replaceChildren(...rows)
  table.hidden = false
}
