/**
 * Helpers for the content service tests: call the service as the site does, and check payloads
 * against the field names of shared/spec/payload-fields.md.
 */
import { exports } from 'cloudflare:workers'
import { expect } from 'vitest'

export type Json = Record<string, unknown>

/** The service under test (content-service/src/index.ts); its Hono default export is not typed as a loopback. */
const service = (exports as unknown as { default: Fetcher }).default

/** Requests any path of the service, e.g. '/api/erebuni/navbar-data'. */
export function fetchPath(path: string, init?: RequestInit): Promise<Response> {
  return service.fetch(new Request(`https://content.test${path}`, init))
}

/** Calls the service as the site does, at `/api/erebuni/<path>`. */
export function call(path: string, init?: RequestInit): Promise<Response> {
  return fetchPath(`/api/erebuni/${path}`, init)
}

/** GETs a call and returns its `payload`, after checking the envelope and the JSON content type. */
export async function getPayload(path: string): Promise<Json> {
  const response = await call(path)
  expect(response.status, path).toBe(200)
  expect(response.headers.get('Content-Type')).toMatch(/^application\/json/)
  const body = (await response.json()) as Json
  expect(Object.keys(body)).toEqual(['payload'])
  return body.payload as Json
}

const ARMENIAN = /[\u0531-\u0587]/
const CYRILLIC = /[\u0410-\u044f\u0401\u0451]/

/**
 * `record[field]` is filled in all three languages: English unprefixed, Russian `ru_` (Cyrillic),
 * Armenian `arm_` (Armenian letters). `anyScript` skips the script check (e.g. an e-mail placeholder).
 */
export function expectLocalized(record: Json, field: string, { anyScript = false } = {}): void {
  const [en, ru, hy] = [record[field], record[`ru_${field}`], record[`arm_${field}`]]
  for (const [name, value] of [
    [field, en],
    [`ru_${field}`, ru],
    [`arm_${field}`, hy],
  ] as const) {
    expect(typeof value === 'string' && value.trim() !== '', `${name} is a non-empty string`).toBe(
      true
    )
  }
  if (anyScript) return
  expect(en, field).not.toMatch(ARMENIAN)
  expect(en, field).not.toMatch(CYRILLIC)
  expect(ru, `ru_${field}`).toMatch(CYRILLIC)
  expect(hy, `arm_${field}`).toMatch(ARMENIAN)
}

/** Every key of `record` is one of `fields`, bare or with a ru_/arm_/en_ prefix: no stray names. */
export function expectOnlyFields(record: Json, fields: string[]): void {
  const stray = Object.keys(record).filter(
    (key) => !fields.includes(key.replace(/^(ru|arm|en)_/, ''))
  )
  expect(stray, 'fields not in payload-fields.md').toEqual([])
}

/** A site-relative image that the seed ships in public/images. */
export function expectImage(value: unknown): void {
  expect(value).toMatch(/^\/images\/[a-z0-9/-]+\.(jpg|png)$/)
}

/** A link the site can follow: an internal route or an https address. */
export function expectLink(value: unknown): void {
  expect(value).toMatch(/^(\/[a-z-]*|https:\/\/\S+)$/)
}

export function asList(value: unknown): Json[] {
  expect(Array.isArray(value)).toBe(true)
  return value as Json[]
}
