/**
 * @module initialize
 * The handshake of 2025-11-25: version negotiation and the session it opens. A requested 2025-era
 * version is echoed; anything else gets the newest of them; 2026-07-28 is never offered
 * here because that revision has no handshake. The session keeps the client's `clientInfo` only
 * as `readClientInfo` checks it, the same way a 2026-07-28 `_meta` clientInfo is checked: a
 * malformed one opens no session.
 */
import { TesseraError } from '../../errors.ts'
import type { JsonObject } from '../../protocol/jsonrpc/message.ts'
import { type ClientCapabilities, capabilityDeclarations } from '../../protocol/modern/capabilities.ts'
import { type Implementation, readClientInfo } from '../../protocol/modern/request-meta.ts'
import { randomId } from '../../security/random.ts'
import type { Catalogue } from '../catalogue.ts'
import type { SessionRecord } from './session-store.ts'

export function negotiateVersion(catalogue: Pick<Catalogue, 'versions'>, requested: string): string {
  return catalogue.versions.handshake.includes(requested) ? requested : catalogue.versions.handshake[0]!
}

export function readInitialize(params: JsonObject | undefined): {
  protocolVersion: string
  capabilities: ClientCapabilities
  clientInfo: Implementation | undefined
} {
  const version = params?.protocolVersion
  const caps = params?.capabilities
  if (typeof version !== 'string') {
    throw new TesseraError('TESSERA_INVALID_PARAMS', 'Invalid params: initialize needs protocolVersion.')
  }
  if (typeof caps !== 'object' || caps === null || Array.isArray(caps)) {
    throw new TesseraError('TESSERA_INVALID_PARAMS', 'Invalid params: initialize needs capabilities.')
  }
  const info = readClientInfo(params?.clientInfo)
  if (!info.ok) {
    const field = info.field === undefined ? '' : `.${info.field}`
    throw new TesseraError(
      'TESSERA_INVALID_PARAMS',
      `Invalid params: initialize clientInfo${field} ${info.problem}.`,
    )
  }
  return { protocolVersion: version, capabilities: caps as ClientCapabilities, clientInfo: info.info }
}

export function newSession(
  catalogue: Pick<Catalogue, 'versions' | 'capabilities' | 'info' | 'instructions'>,
  params: JsonObject | undefined,
  principal: string,
): { session: SessionRecord; result: JsonObject } {
  const init = readInitialize(params)
  const version = negotiateVersion(catalogue, init.protocolVersion)
  const session: SessionRecord = {
    // 192 random bits, base64url: visible ASCII as the spec requires, and unguessable.
    id: randomId(24),
    protocolVersion: version,
    clientCapabilities: capabilityDeclarations(init.capabilities),
    clientInfo: init.clientInfo,
    subscriptions: [],
    principal,
    initialized: false,
    createdAt: Date.now(),
  }
  const result: JsonObject = {
    protocolVersion: version,
    capabilities: catalogue.capabilities('handshake'),
    serverInfo: catalogue.info,
  }
  if (catalogue.instructions !== undefined) result.instructions = catalogue.instructions
  return { session, result }
}
