/**
 * @module standard-headers
 * The standard mirrors of 2026-07-28 over HTTP (SEP-2243): `MCP-Protocol-Version`, `Mcp-Method`
 * and `Mcp-Name` must be present where required and equal to the body. Names are matched
 * case-insensitively by the transport; values are case-sensitive. Only `Mcp-Name` may use the
 * Base64 sentinel.
 */
import { decodeHeaderValue } from './header-value.ts'
import type { HeaderView } from './header-view.ts'

export type HeaderFault = { message: string }

const MAX_ECHO = 64

export function checkVersionHeader(headers: HeaderView, bodyVersion: string): HeaderFault | undefined {
  return literal(headers, 'mcp-protocol-version', 'MCP-Protocol-Version', bodyVersion)
}

export function checkMethodHeader(headers: HeaderView, method: string): HeaderFault | undefined {
  return literal(headers, 'mcp-method', 'Mcp-Method', method)
}

export function checkNameHeader(headers: HeaderView, bodyName: string): HeaderFault | undefined {
  if (headers.isRepeated('mcp-name')) return { message: 'Header mismatch: Mcp-Name was sent more than once.' }
  const raw = headers.get('mcp-name')
  if (raw === undefined) return { message: 'Header mismatch: required Mcp-Name header is missing.' }
  const decoded = decodeHeaderValue(raw)
  if (!decoded.ok) return { message: `Header mismatch: Mcp-Name header ${decoded.reason}.` }
  if (decoded.value !== bodyName) {
    return {
      message: `Header mismatch: Mcp-Name header value '${clip(decoded.value)}' does not match body value '${clip(bodyName)}'.`,
    }
  }
  return undefined
}

function literal(headers: HeaderView, name: string, display: string, body: string): HeaderFault | undefined {
  if (headers.isRepeated(name)) return { message: `Header mismatch: ${display} was sent more than once.` }
  const value = headers.get(name)
  if (value === undefined) return { message: `Header mismatch: required ${display} header is missing.` }
  if (value !== body) {
    return {
      message: `Header mismatch: ${display} header value '${clip(value)}' does not match body value '${clip(body)}'.`,
    }
  }
  return undefined
}

export function clip(value: string): string {
  return value.length > MAX_ECHO ? `${value.slice(0, MAX_ECHO)}…` : value
}
