/**
 * Stored payloads are trusted when their entry carries the current PAYLOAD_SCHEMA_VERSION
 * (src/freshness/payload-cache.ts), so that version must change whenever what the schemas make of a payload
 * changes. This test pins a fingerprint of the schemas' output (the seed payloads' shapes with every
 * field set to sample, hostile and mistyped values) to the version: change the output without bumping the version and it fails.
 */
import { describe, expect, it } from 'vitest'
import about from '../../content-service/seed/about.json'
import contact from '../../content-service/seed/contact-us.json'
import enterprises from '../../content-service/seed/enterprises.json'
import home from '../../content-service/seed/home.json'
import navbar from '../../content-service/seed/navbar.json'
import pageMeta from '../../content-service/seed/page-meta.json'
import {
  AboutPayloadSchema,
  ContactDataSchema,
  EnterprisesPayloadSchema,
  HomePayloadSchema,
  NavbarPayloadSchema,
  PageMetaSchema,
  PAYLOAD_SCHEMA_VERSION,
} from '../../src/content/schemas'

/** The fingerprint of each version's output. A new version adds its line (the test prints the value). */
const FINGERPRINTS: Record<string, string> = {
  'payload-schema-1': '8d5c270f00004722dc8e058e733e5ab2fe478addf2dd4224d681a81ecd9b4122',
}

/**
 * Values every field gets in turn: text, addresses of each kind, CMS HTML, hostile and mistyped
 * values. Only the seed's shape is used (its field names, each list cut to one entry), so editing
 * the seed content does not change the fingerprint.
 */
const VALUES = [
  'Plain text',
  '/images/a.jpg',
  'https://cms.example.am/uploads/a.jpg',
  'mailto:info@example.am',
  '<p>Built of <strong>tuff</strong>, see <a href="/about">about</a> and <a href="https://example.com">more</a>.</p>',
  'javascript:alert(1)',
  '<img src=x onerror=alert(1)><a href="//evil.example">x</a><script>alert(1)</script>',
  'http://[',
  42,
  null,
  { a: 1 },
]

/** `value`'s shape with every leaf replaced by `replacement` and every list cut to its first entry. */
function replaceLeaves(value: unknown, replacement: unknown): unknown {
  if (Array.isArray(value)) return value.slice(0, 1).map((item) => replaceLeaves(item, replacement))
  if (value && typeof value === 'object')
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, replaceLeaves(item, replacement)])
    )
  return replacement
}

async function sha256(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text))
  return [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, '0')).join('')
}

describe('payload schema version', () => {
  it('changes whenever what the schemas make of a payload changes', async () => {
    const cases: [{ parse: (value: unknown) => unknown }, unknown][] = [
      [HomePayloadSchema, home],
      [AboutPayloadSchema, about],
      [EnterprisesPayloadSchema, enterprises],
      [ContactDataSchema, contact],
      [NavbarPayloadSchema, navbar],
      [PageMetaSchema, Object.values(pageMeta)[0]],
    ]
    const outputs = cases.flatMap(([schema, payload]) => [
      ...VALUES.map((value) => schema.parse(replaceLeaves(payload, value))),
      schema.parse({}),
    ])
    const fingerprint = await sha256(JSON.stringify(outputs))
    expect(
      FINGERPRINTS[PAYLOAD_SCHEMA_VERSION],
      `the schemas' output changed (fingerprint ${fingerprint}): bump PAYLOAD_SCHEMA_VERSION in src/content/schemas.ts and add its fingerprint here`
    ).toBe(fingerprint)
  })
})
