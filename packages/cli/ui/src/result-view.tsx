/**
 * @module result-view
 * A result as a person reads it: text blocks as text, images and audio as media, resources as
 * their text, `structuredContent` as JSON. A request that brought no result says why, in words
 * (`explainOutcome`), and a result with nothing in it says so: the panel is never blank.
 */
import { explainOutcome } from './explain-outcome.ts'
import type { Json, RpcOutcome } from './mcp-client.ts'

type Block = Json & { type?: string }

/** `action`: what the request did, as the explanation's first words (`Calling rollback`). */
export function ResultView({ action, outcome }: { action: string; outcome: RpcOutcome }) {
  if (outcome.result === undefined || outcome.error !== undefined)
    return <OutcomeView action={action} outcome={outcome} />
  const result = outcome.result
  const blocks = ((result.content ?? result.contents ?? result.messages) as Block[] | undefined) ?? []
  return (
    <div class={`result${result.isError ? ' error' : ''}`} role="status">
      {result.isError === true && <strong>The tool reported an error</strong>}
      {blocks.length === 0 && result.structuredContent === undefined && (
        <>
          <p>{action}: the server answered with a result that holds no content.</p>
          <pre>{JSON.stringify(result, null, 2)}</pre>
        </>
      )}
      {blocks.map((block) => (
        <BlockView block={(block.content as Block | undefined) ?? block} />
      ))}
      {result.structuredContent !== undefined && (
        <details open>
          <summary>structuredContent</summary>
          <pre>{JSON.stringify(result.structuredContent, null, 2)}</pre>
        </details>
      )}
    </div>
  )
}

/** Why a request brought no result: what happened, what the server said, what to do. */
export function OutcomeView({ action, outcome }: { action: string; outcome: RpcOutcome }) {
  const explanation = explainOutcome(action, outcome)
  if (explanation === undefined) return null
  return (
    <div class="result error" role="status">
      <strong>{explanation.summary}</strong>
      <ul>
        {explanation.details.map((detail) => (
          <li>{detail}</li>
        ))}
      </ul>
      {explanation.advice && <p class="advice">{explanation.advice}</p>}
    </div>
  )
}

function BlockView({ block }: { block: Block }) {
  if (block.type === 'image')
    return (
      <img
        alt={`${String(block.mimeType)} content of the result`}
        src={`data:${block.mimeType};base64,${block.data}`}
      />
    )
  // biome-ignore lint/a11y/useMediaCaption: a tool's audio comes without captions, and the console cannot make them
  if (block.type === 'audio') return <audio controls src={`data:${block.mimeType};base64,${block.data}`} />
  if (typeof block.text === 'string') return <pre class="text">{block.text}</pre>
  if (block.type === 'resource') return <BlockView block={block.resource as Block} />
  return <pre>{JSON.stringify(block, null, 2)}</pre>
}
