/**
 * @module main
 * The development console's page: live traffic on one side, from the server's event stream,
 * and a client to try the server's tools, resources and prompts on the other.
 */
import type { DevEvent } from '@tessera/core/http'
import { render } from 'preact'
import { useEffect, useMemo, useState } from 'preact/hooks'
import { ConsoleClient } from './mcp-client.ts'
import { apply, emptyTraffic, TrafficIndex } from './traffic.ts'
import { TrafficView } from './traffic-view.tsx'
import { TryIt } from './try-it.tsx'
import './console.css'

const endpoint = document.querySelector<HTMLMetaElement>('meta[name="tessera-endpoint"]')?.content ?? '/mcp'

function App() {
  const client = useMemo(() => new ConsoleClient(endpoint), [])
  const index = useMemo(() => new TrafficIndex(), [])
  const [traffic, setTraffic] = useState(emptyTraffic)
  const [connected, setConnected] = useState(false)

  useEffect(() => {
    const source = new EventSource('/_tessera/events')
    const onEvent = (message: MessageEvent<string>) => {
      const event = JSON.parse(message.data) as DevEvent
      setTraffic((current) => apply(current, event, index))
    }
    for (const type of [
      'request',
      'request-end',
      'round',
      'single-use',
      'state-refused',
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
        <TryIt client={client} />
      </main>
    </>
  )
}

render(<App />, document.getElementById('app')!)
