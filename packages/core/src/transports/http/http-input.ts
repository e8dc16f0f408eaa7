/**
 * @module http-input
 * One HTTP request as both faces (node:http and fetch) hand it to the shared handling.
 */
import type { HeaderView } from '../../protocol/modern/header-view.ts'

export interface HttpInput {
  method: string
  headers: HeaderView
  /** Reads the body as text, or returns undefined when it exceeds the limit. */
  body(): Promise<string | undefined>
}
