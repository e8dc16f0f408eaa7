/**
 * @module main
 * The development console's page: live traffic on one side, from the server's event stream,
 * and a client to try the server's tools, resources and prompts on the other, with the access
 * token a protected server needs.
 */
import type { DevEvent } from '@tessera/core/http'
import { render } from 'preact'
import { useEffect, useMemo, useRef, useState } from 'preact/hooks'
import { ConsoleClient, redactToken } from './mcp-client.ts'
import { keptToken, TokenField } from './token-field.tsx'
import { apply, emptyTraffic, TrafficIndex } from './traffic.ts'
import { TrafficView } from './traffic-view.tsx'
import { TryIt } from './try-it.tsx'
import './console.css'

const endpoint = document.querySelector<HTMLMetaElement>('meta[name="tessera-endpoint"]')?.content ?? '/mcp'

function App() {
  const [token, setToken] = useState(keptToken)
  const client = useMemo(() => new ConsoleClient(endpoint, token), [token])
  const index = useMemo(() => new TrafficIndex(), [])
  const [traffic, setTraffic] = useState(emptyTraffic)
  const [connected, setConnected] = useState(false)
  // The event stream outlives a token change: its handler reads the token in use now.
  const tokenNow = useRef(token)
  tokenNow.current = token

  useEffect(() => {
    const source = new EventSource('/_tessera/events')
    const onEvent = (message: MessageEvent<string>) => {
      // The server never publishes a request's headers; a message that quotes the token (an
      // application's own authenticator might) still shows it only as `…`.
      const event = redactToken(JSON.parse(message.data) as DevEvent, tokenNow.current)
      setTraffic((current) => apply(current, event, index))
    }
    for (const type of [
      'request',
      'request-end',
      'round',
      'single-use',
      'state-refused',
      'rate-limited',
      'listen-stream',
      'task',
      'session',
    ])
      source.addEventListener(type, onEvent as EventListener)
    source.onopen = () => setConnected(true)
    source.onerror = () => setConnected(false)
    return () => source.close()
  }, [index])

  return (
    <>
      <header>
        <h1>Tessera dev console</h1>
        <p>
          <code>{endpoint}</code> · {connected ? 'live' : 'reconnecting…'}
        </p>
      </header>
      <main>
        <TrafficView traffic={traffic} />
        <TryIt client={client}>
          <TokenField token={token} onChange={setToken} />
        </TryIt>
      </main>
    </>
  )
}

render(<App />, document.getElementById('app')!)
