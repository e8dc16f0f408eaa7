/**
 * @module result-view
 * A result as a person reads it: text blocks as text, images and audio as media, resources as
 * their text, `structuredContent` as JSON, a JSON-RPC error with its code.
 */
import type { Json, RpcOutcome } from './mcp-client.ts'

type Block = Json & { type?: string }

export function ResultView({ outcome }: { outcome: RpcOutcome }) {
  if (outcome.error) {
    return (
      <div class="result error" role="status">
        <strong>Error {outcome.error.code}</strong> (HTTP {outcome.status}): {outcome.error.message}
      </div>
    )
  }
  const result = outcome.result ?? {}
  const blocks = ((result.content ?? result.contents ?? result.messages) as Block[] | undefined) ?? []
  return (
    <div class={`result${result.isError ? ' error' : ''}`} role="status">
      {result.isError === true && <strong>The tool reported an error</strong>}
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
