/**
 * Scenario cases (measured with bench/scenario-runner.ts). Add new ones here, e.g. an MRTR round
 * trip (tools/call -> input_required -> retry with inputResponses + requestState) or a guarded call
 * per replay store; `npm run bench -- --cases <name>` picks them like the HTTP cases.
 */
import { expectJsonRpcResult } from './cases.ts'
import type { Scenario } from './scenario-runner.ts'

/** One tools/call per operation through fetch (Node's bundled undici, default global agent). */
const toolsCallLoop: Scenario = {
  kind: 'scenario',
  name: 'tools-call-loop',
  description: 'the tools-call request via fetch(), one per operation',
  default: false,
  era: '2026-07-28',
  prepare({ origin, cases }) {
    const c = cases.get('tools-call')
    if (!c) throw new Error('bench/requests/cases.json has no tools-call case')
    const url = origin + c.path
    const init = { method: 'POST', headers: c.headers, body: c.body }
    return async () => {
      const res = await fetch(url, init)
      const text = await res.text()
      expectJsonRpcResult(res.status, res.headers.get('content-type'), text, c.id)
    }
  },
}

export const scenarios: readonly Scenario[] = [toolsCallLoop]
