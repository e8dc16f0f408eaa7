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
export interface RequestUrl {
  readonly pathname: string
  /** The path and the query, without the fragment. */
  readonly target: string
  /** The host and, when not the scheme's default, the port: read only for a request without `Host`. */
  host(): string
}

/** Cuts the serialized URL `href` of a `Request` into the parts the fetch face reads. */
export function requestUrl(href: string): RequestUrl {
  const authorityStart = href.startsWith('http://') ? 7 : href.startsWith('https://') ? 8 : -1
  const pathStart = authorityStart === -1 ? -1 : href.indexOf('/', authorityStart)
  return pathStart === -1 ? parsedUrl(href) : new SerializedUrl(href, authorityStart, pathStart)
}

class SerializedUrl implements RequestUrl {
  readonly pathname: string
  readonly target: string
  readonly #href: string
  readonly #authorityStart: number
  readonly #pathStart: number

  constructor(href: string, authorityStart: number, pathStart: number) {
    const fragment = href.indexOf('#', pathStart)
    const target = fragment === -1 ? href.slice(pathStart) : href.slice(pathStart, fragment)
    const query = target.indexOf('?')
    this.pathname = query === -1 ? target : target.slice(0, query)
    this.target = target
    this.#href = href
    this.#authorityStart = authorityStart
    this.#pathStart = pathStart
  }

  host(): string {
    return this.#href.slice(this.#authorityStart, this.#pathStart)
  }
}

function parsedUrl(href: string): RequestUrl {
  const url = new URL(href)
  return { pathname: url.pathname, target: url.pathname + url.search, host: () => url.host }
}
