/**
 * @module header-view
 * The read-only view of HTTP request headers the modern protocol checks need.
 * Transports implement it over their own header representation; stdio passes none.
 */
/**
 * The headers of one HTTP request, read-only, under lowercase names: what an authenticator is
 * given (`HttpAuthRequest.headers`) and what the protocol checks read, whichever HTTP stack
 * received the request.
 */
export interface HeaderView {
  /** The header's value (name given in lowercase), or undefined when absent. */
  get(name: string): string | undefined
  /** True when the header was sent more than once (a repeated mirror is always refused). */
  isRepeated(name: string): boolean
}
