/**
 * @module request-url
 * The parts of a `Request`'s URL the fetch face reads, cut from its serialized text. A runtime
 * hands a `Request` whose `url` it has already parsed and serialized, so an http(s) URL there is
 * `scheme://host[:port]/path[?query][#fragment]` (a `Request` refuses a URL with credentials),
 * with every `/`, `?` and `#` outside those roles percent-encoded: cutting it at those characters
 * gives what `new URL` would, for a fraction of the cost of parsing it again. Any other scheme is
 * parsed by `URL`.
 */

/** A request URL's path, its target (path and query, as an HTTP/1.1 request line sends it) and its host. */
export class RequestUrl {
  readonly pathname: string
  /** The path and the query, without the fragment. */
  readonly target: string
  readonly #text: string
  readonly #hostStart: number
  readonly #hostEnd: number

  /** `text.slice(hostStart, hostEnd)` is the host, cut only when asked for. */
  constructor(pathname: string, target: string, text: string, hostStart: number, hostEnd: number) {
    this.pathname = pathname
    this.target = target
    this.#text = text
    this.#hostStart = hostStart
    this.#hostEnd = hostEnd
  }

  /** The host and, when not the scheme's default, the port: read only for a request without `Host`. */
  host(): string {
    return this.#text.slice(this.#hostStart, this.#hostEnd)
  }
}

/** Cuts the serialized URL `href` of a `Request` into the parts the fetch face reads. */
export function requestUrl(href: string): RequestUrl {
  const authorityStart = href.startsWith('http://') ? 7 : href.startsWith('https://') ? 8 : -1
  const pathStart = authorityStart === -1 ? -1 : href.indexOf('/', authorityStart)
  if (pathStart === -1) {
    const url = new URL(href)
    return new RequestUrl(url.pathname, url.pathname + url.search, url.host, 0, url.host.length)
  }
  const fragment = href.indexOf('#', pathStart)
  const target = fragment === -1 ? href.slice(pathStart) : href.slice(pathStart, fragment)
  const query = target.indexOf('?')
  return new RequestUrl(
    query === -1 ? target : target.slice(0, query),
    target,
    href,
    authorityStart,
    pathStart,
  )
}
