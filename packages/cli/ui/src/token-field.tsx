/**
 * @module token-field
 * Where a person pastes the access token the console's requests carry (`Authorization: Bearer`).
 * The token is kept in this tab only (sessionStorage, gone with the tab or on "Forget token"),
 * never shown again once used (a password field, emptied), and never sent anywhere but the MCP
 * endpoint: the server's event stream knows nothing of it.
 */
import { useState } from 'preact/hooks'
import { checkedToken } from './mcp-client.ts'

const STORAGE_KEY = 'tessera-console-token'

/** The token this tab kept, if any (storage can be off: then the page starts without one). */
export function keptToken(): string | undefined {
  try {
    const kept = sessionStorage.getItem(STORAGE_KEY)
    if (kept === null) return undefined
    const checked = checkedToken(kept)
    return 'token' in checked ? checked.token : undefined
  } catch {
    return undefined
  }
}

function keep(token: string | undefined): void {
  try {
    if (token === undefined) sessionStorage.removeItem(STORAGE_KEY)
    else sessionStorage.setItem(STORAGE_KEY, token)
  } catch {
    // Storage refused (a private window, a policy): the token lives in the page's memory only.
  }
}

export function TokenField(props: { token: string | undefined; onChange(token: string | undefined): void }) {
  const { token, onChange } = props
  const [draft, setDraft] = useState('')
  const [problem, setProblem] = useState<string>()

  const use = (event: Event) => {
    event.preventDefault()
    const checked = checkedToken(draft)
    if ('problem' in checked) {
      setProblem(checked.problem)
      return
    }
    setProblem(undefined)
    setDraft('')
    keep(checked.token)
    onChange(checked.token)
  }
  const forget = () => {
    setProblem(undefined)
    setDraft('')
    keep(undefined)
    onChange(undefined)
  }

  return (
    <form class="token" onSubmit={use}>
      <div class="field">
        <label for="token">Access token</label>
        <input
          id="token"
          type="password"
          autocomplete="off"
          spellcheck={false}
          aria-describedby="token-state"
          placeholder={token === undefined ? 'paste a bearer token' : 'paste another token to replace it'}
          value={draft}
          onInput={(e) => setDraft(e.currentTarget.value)}
        />
        <small id="token-state">
          {token === undefined
            ? 'Requests carry no token.'
            : 'Requests carry Authorization: Bearer … (kept in this tab only).'}
        </small>
      </div>
      {problem && <p role="alert">{problem}</p>}
      <div class="actions">
        <button type="submit">Use token</button>
        {token !== undefined && (
          <button type="button" onClick={forget}>
            Forget token
          </button>
        )}
      </div>
    </form>
  )
}
