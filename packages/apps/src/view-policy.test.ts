/**
 * @module view-policy.test
 * A host's sandbox for a view, from the metadata the server sent: the CSP reaches only the
 * origins it names, and the frame is allowed only the features it asked for, whatever shape the
 * metadata has.
 */
import { describe, expect, it } from 'vitest'
import { viewContentSecurityPolicy, viewPermissionsPolicy } from './view-policy.ts'

describe('viewContentSecurityPolicy', () => {
  it('letsAViewReachOnlyTheOriginsItsMetadataNames', () => {
    expect(viewContentSecurityPolicy(undefined)).toBe(
      "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:; font-src data:; media-src data:; connect-src 'none'; frame-src 'none'; base-uri 'none'",
    )
    const policy = viewContentSecurityPolicy({
      csp: {
        connectDomains: ['https://api.example.com', 'https://x.com; script-src *'],
        resourceDomains: ['https://cdn.example.com'],
      },
    })
    expect(policy).toContain('connect-src https://api.example.com;')
    expect(policy).toContain("script-src 'unsafe-inline' https://cdn.example.com;")
    expect(policy).not.toContain('script-src *')
  })

  it('readsMetadataOfAnotherShapeAsNothingAllowed', () => {
    const closed = viewContentSecurityPolicy(undefined)
    expect(viewContentSecurityPolicy({ csp: 'https://x.com' as never })).toBe(closed)
    expect(viewContentSecurityPolicy({ csp: null as never })).toBe(closed)
    expect(viewContentSecurityPolicy({ csp: { connectDomains: 'https://x.com' as never } })).toBe(closed)
    expect(viewContentSecurityPolicy({ csp: { connectDomains: [42, {}] as never } })).toBe(closed)
  })
})

describe('viewPermissionsPolicy', () => {
  it('allowsTheFrameTheFeaturesTheViewAskedFor', () => {
    expect(viewPermissionsPolicy({ permissions: { clipboardWrite: {}, camera: {} } })).toBe(
      'camera; clipboard-write',
    )
    expect(viewPermissionsPolicy({ permissions: { geolocation: {}, microphone: {} } })).toBe(
      'microphone; geolocation',
    )
  })

  it('allowsNothingForAnUnknownFeatureOrMetadataOfAnotherShape', () => {
    expect(viewPermissionsPolicy(undefined)).toBe('')
    expect(viewPermissionsPolicy({})).toBe('')
    expect(viewPermissionsPolicy({ permissions: 'camera' })).toBe('')
    expect(viewPermissionsPolicy({ permissions: { usb: {}, 'camera; *': {} } })).toBe('')
  })
})
