/**
 * @module traffic-view
 * Live traffic: one row per call, newest first, with its requests threaded under it (each
 * round's questions, the answers' actions, the state's round and expiry, refusals with their
 * reason, the rate limit that refused it) and the state of its single-use record; and the rate
 * limits that refused requests, with how many each refused.
 */
import { type CallView, type RequestView, recordState, type Traffic } from './traffic.ts'

const time = (epochMs: number) => new Date(epochMs).toLocaleTimeString()

export function TrafficView({ traffic }: { traffic: Traffic }) {
  const calls = [...traffic.calls].reverse()
  return (
    <section aria-labelledby="traffic-heading" class="panel">
      <h2 id="traffic-heading">Traffic</h2>
      <p class="summary">
        {traffic.calls.length} calls · {traffic.openStreams} open listen streams · {traffic.openSessions} open
        handshake sessions · {traffic.tasks.size} tasks ·{' '}
        {[...traffic.rateLimits.values()].reduce((sum, limit) => sum + limit.refused, 0)} refused by rate
        limits
      </p>
      <RateLimitsTable traffic={traffic} />
      <TasksTable traffic={traffic} />
      <table>
        <caption class="visually-hidden">Requests, grouped by call, newest first</caption>
        <thead>
          <tr>
            <th scope="col">#</th>
            <th scope="col">era</th>
            <th scope="col">method</th>
            <th scope="col">target</th>
            <th scope="col">caller</th>
            <th scope="col">status</th>
            <th scope="col">rounds</th>
            <th scope="col">single use</th>
          </tr>
        </thead>
        <tbody>
          {calls.map((call) => (
            <CallRow call={call} />
          ))}
        </tbody>
      </table>
    </section>
  )
}

/** The rate limits that refused requests, with how many each refused. */
function RateLimitsTable({ traffic }: { traffic: Traffic }) {
  if (traffic.rateLimits.size === 0) return null
  return (
    <table class="rate-limits">
      <caption>Rate limits that refused requests</caption>
      <thead>
        <tr>
          <th scope="col">limit</th>
          <th scope="col">scope</th>
          <th scope="col">refused</th>
        </tr>
      </thead>
      <tbody>
        {[...traffic.rateLimits].map(([limit, { scope, refused }]) => (
          <tr>
            <td>{limit}</td>
            <td>{scope}</td>
            <td>{refused}</td>
          </tr>
        ))}
      </tbody>
    </table>
  )
}

/** Every task seen, with its latest status. */
function TasksTable({ traffic }: { traffic: Traffic }) {
  if (traffic.tasks.size === 0) return null
  return (
    <table class="tasks">
      <caption>Tasks, with their latest status</caption>
      <thead>
        <tr>
          <th scope="col">task</th>
          <th scope="col">status</th>
          <th scope="col">message</th>
          <th scope="col">started by</th>
        </tr>
      </thead>
      <tbody>
        {[...traffic.tasks].map(([id, task]) => (
          <tr>
            <td>
              <code>{id.slice(0, 12)}</code>
            </td>
            <td>{task.status}</td>
            <td>{task.statusMessage ?? ''}</td>
            <td>{task.request === undefined ? '' : `#${task.request}`}</td>
          </tr>
        ))}
      </tbody>
    </table>
  )
}

function CallRow({ call }: { call: CallView }) {
  const first = call.requests[0]!.request
  const last = call.requests[call.requests.length - 1]!.request
  const record = recordState(call)
  return (
    <>
      <tr class="call" data-call={call.id}>
        <td>{call.id}</td>
        <td>{first.era ?? '-'}</td>
        <td>{first.method ?? first.httpMethod}</td>
        <td>{first.target ?? ''}</td>
        <td>{first.subject ?? 'anonymous'}</td>
        <td class={(last.status ?? 0) >= 400 || last.error ? 'bad' : ''}>
          {last.status ?? '…'}
          {last.error && ` (${last.error.code})`}
        </td>
        <td class="rounds">{call.requests.length}</td>
        <td class="record">{record ? `${record.state}` : ''}</td>
      </tr>
      <tr class="rounds-detail">
        <td colSpan={8}>
          <ol>
            {call.requests.map((view) => (
              <RequestLine view={view} />
            ))}
          </ol>
        </td>
      </tr>
    </>
  )
}

function RequestLine({ view }: { view: RequestView }) {
  const { request, asked, answered, actions, singleUse, refusals, limited } = view
  return (
    <li class="round">
      <span>
        #{request.id} {time(request.at)} · {request.status ?? '…'}
        {request.ms !== undefined && ` · ${request.ms.toFixed(1)} ms`}
      </span>
      {answered && (
        <span>
          {' '}
          · answers round {answered.round} (record {answered.record}):{' '}
          {Object.entries(actions ?? {})
            .map(([key, action]) => `${key} ${action}`)
            .join(', ')}
        </span>
      )}
      {asked && (
        <span>
          {' '}
          · asks round {asked.round}: {asked.questions.join(', ')} (record {asked.record}, expires{' '}
          {time(asked.expiresAt)}, {asked.carried.length} answers carried)
        </span>
      )}
      {singleUse.map((event) => (
        <span class="single-use">
          {' '}
          · single use: {event.status}
          {event.outcome !== undefined && (
            <details>
              <summary>the outcome the record keeps</summary>
              <pre>{event.outcome}</pre>
            </details>
          )}
        </span>
      ))}
      {refusals.map((reason) => (
        <span class="bad"> · requestState refused: {reason}</span>
      ))}
      {limited && (
        <span class="bad">
          {' '}
          · rate limited: {limited.limit}, retry in {Math.max(1, Math.ceil(limited.retryAfterMs / 1000))} s
        </span>
      )}
      {request.error && (
        <span class="bad">
          {' '}
          · error {request.error.code}: {request.error.message}
        </span>
      )}
    </li>
  )
}
