/**
 * @module metadata
 * OAuth 2.0 Protected Resource Metadata (RFC 9728) for one MCP endpoint, and where it is served:
 * the path-suffixed well-known URI and the root one, so a client finds it either way.
 */

export interface MetadataInput {
  resource: URL
  authorizationServers: readonly string[]
  scopesSupported: readonly string[]
  dpopAlgorithms: readonly string[] | undefined
  resourceName: string | undefined
  resourceDocumentation: string | undefined
}

const WELL_KNOWN = '/.well-known/oauth-protected-resource'

export function protectedResourceMetadata(input: MetadataInput): Record<string, unknown> {
  const document: Record<string, unknown> = {
    resource: input.resource.href,
    authorization_servers: [...input.authorizationServers],
    bearer_methods_supported: ['header'],
  }
  if (input.scopesSupported.length > 0) document.scopes_supported = [...input.scopesSupported]
  if (input.dpopAlgorithms !== undefined) {
    document.dpop_signing_alg_values_supported = [...input.dpopAlgorithms]
    document.dpop_bound_access_tokens_required = false
  }
  if (input.resourceName !== undefined) document.resource_name = input.resourceName
  if (input.resourceDocumentation !== undefined) document.resource_documentation = input.resourceDocumentation
  return document
}

/** The well-known paths of `resource`: path-suffixed first, then the root. */
export function metadataPaths(resource: URL): string[] {
  const path = resource.pathname === '/' ? '' : resource.pathname.replace(/\/$/, '')
  return path === '' ? [WELL_KNOWN] : [`${WELL_KNOWN}${path}`, WELL_KNOWN]
}

/** The URL a challenge names: the path-suffixed document. */
export function metadataUrl(resource: URL): string {
  return new URL(metadataPaths(resource)[0]!, resource.origin).href
}
