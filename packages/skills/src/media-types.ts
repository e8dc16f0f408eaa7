/**
 * @module media-types
 * The media type a skill file is served with, from its extension, and whether it goes out as
 * text or as base64.
 */

const BY_EXTENSION: Readonly<Record<string, string>> = {
  md: 'text/markdown',
  markdown: 'text/markdown',
  txt: 'text/plain',
  html: 'text/html',
  css: 'text/css',
  csv: 'text/csv',
  xml: 'application/xml',
  json: 'application/json',
  yaml: 'application/yaml',
  yml: 'application/yaml',
  js: 'text/javascript',
  mjs: 'text/javascript',
  ts: 'text/x-typescript',
  py: 'text/x-python',
  sh: 'text/x-shellscript',
  sql: 'application/sql',
  svg: 'image/svg+xml',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  pdf: 'application/pdf',
  zip: 'application/zip',
}

const TEXTUAL = new Set([
  'application/xml',
  'application/json',
  'application/yaml',
  'application/sql',
  'image/svg+xml',
])

/** The media type of a file named `path`; `application/octet-stream` when the extension says nothing. */
export function mediaTypeOf(path: string): string {
  const dot = path.lastIndexOf('.')
  const extension = dot < 0 ? '' : path.slice(dot + 1).toLowerCase()
  return BY_EXTENSION[extension] ?? 'application/octet-stream'
}

/** Whether a file of `mediaType` is sent as text (when its bytes are UTF-8). */
export function isTextual(mediaType: string): boolean {
  return mediaType.startsWith('text/') || TEXTUAL.has(mediaType)
}
