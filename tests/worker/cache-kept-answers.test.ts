/**
 * Answers the edge may keep besides pages: a 404 and a project's redirect. Each says its own
 * lifetime (the pages' policy: browsers revalidate, the edge keeps it fresh for PAGE_CACHE_TTL and
 * stale for days) and carries the Cache-Tag of the payloads that decided it, so that the purge
 * after a content change reaches it (docs/decisions/0027-edge-copies-outlive-a-quiet-night.md).
 * Without them Workers Cache would keep a 404 or a 301 by heuristic, out of any purge's reach.
 */
import { waitOnExecutionContext } from 'cloudflare:test'
import { afterEach, describe, expect, it } from 'vitest'
import type { Bindings } from '../../src/env'
import worker from '../../src/index'
import { pageCacheHeaders } from '../../src/freshness'
import { fakeBackend, json, samplePayloads, type Answer } from '../support/worker/fake-backend'
import { contextWithWorkersCache } from '../support/worker/freshness'
import { fetchPage } from '../support/worker/worker'
import { signedNow } from '../support/worker/signed-call'

const SECRET = 'kept-answers-secret'
let backend: ReturnType<typeof fakeBackend> | undefined
afterEach(() => backend?.restore())

const enterprises = samplePayloads['get-enterprises-page'] as {
  enterprises: Record<string, unknown>[]
}

function setup() {
  const answers: Record<string, Answer> = {}
  backend = fakeBackend(answers)
  return {
    bindings: backend.env({ PUBLISH_SECRET: SECRET }),
    /** The backend's enterprises payload now lists these projects. */
    editProjects: (projects: Record<string, unknown>[]) => {
      answers['get-enterprises-page'] = json({ payload: { ...enterprises, enterprises: projects } })
    },
  }
}

/** The publish hook, signed as the CMS calls it; resolves to the tags Workers Cache was asked to purge. */
async function publish(bindings: Bindings): Promise<string[]> {
  const body = JSON.stringify({ payloads: ['get-enterprises-page'] })
  const { ctx, tags } = contextWithWorkersCache()
  const response = await worker.fetch(
    new Request('http://localhost/api/publish', {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        'CF-Connecting-IP': '2001:db8:27::1',
        ...(await signedNow(SECRET, body)),
      },
      body,
    }),
    bindings,
    ctx
  )
  expect(response.status).toBe(200)
  await waitOnExecutionContext(ctx)
  return tags()
}

function tagsOf(response: Response): string[] {
  return (response.headers.get('Cache-Tag') ?? '').split(',').filter(Boolean)
}

const PAGE_POLICY = pageCacheHeaders(60)

describe('answers the edge may keep besides pages', () => {
  it("gives a new project's address, asked for before its publish, a 404 the publish purges", async () => {
    const { bindings, editProjects } = setup()
    const before = await fetchPage('/en/enterprises/7-riverside-homes', bindings)
    expect(before.status).toBe(404)
    expect(before.headers.get('Cache-Control')).toBe(PAGE_POLICY['Cache-Control'])
    expect(before.headers.get('Cloudflare-CDN-Cache-Control')).toBe(
      PAGE_POLICY['Cloudflare-CDN-Cache-Control']
    )
    expect(tagsOf(before)).toEqual(
      expect.arrayContaining([
        'page:/en/enterprises/7-riverside-homes',
        'payload:get-enterprises-page',
      ])
    )

    editProjects([
      ...enterprises.enterprises,
      { id: 7, title: 'Riverside Homes', ru_title: 'Дома', arm_title: 'Տներ' },
    ])
    const purged = await publish(bindings)
    expect(purged).toEqual(expect.arrayContaining(['payload:get-enterprises-page']))
    expect(tagsOf(before).some((tag) => purged.includes(tag))).toBe(true)

    const after = await fetchPage('/en/enterprises/7-riverside-homes', bindings)
    expect(after.status).toBe(200)
  })

  it("gives a renamed project's old address a redirect tagged with the enterprises payload, which the rename's publish purges", async () => {
    const { bindings, editProjects } = setup()
    const old = await fetchPage('/en/enterprises/3', bindings)
    expect(old.status).toBe(301)
    expect(old.headers.get('Location')).toBe('/en/enterprises/3-northern-avenue-business-centre')
    expect(old.headers.get('Cache-Control')).toBe(PAGE_POLICY['Cache-Control'])
    expect(old.headers.get('Cloudflare-CDN-Cache-Control')).toBe(
      PAGE_POLICY['Cloudflare-CDN-Cache-Control']
    )
    expect(tagsOf(old)).toEqual(
      expect.arrayContaining(['page:/en/enterprises/3', 'payload:get-enterprises-page'])
    )

    editProjects([{ ...enterprises.enterprises[0], title: 'Northern Avenue Tower' }])
    const purged = await publish(bindings)
    expect(tagsOf(old).some((tag) => purged.includes(tag))).toBe(true)

    const renamed = await fetchPage('/en/enterprises/3', bindings)
    expect(renamed.headers.get('Location')).toBe('/en/enterprises/3-northern-avenue-tower')
  })

  it('gives a 404 at any unknown address the lifetime and tags of a page, and the navbar it shows', async () => {
    const { bindings } = setup()
    const missing = await fetchPage('/en/no-such-page', bindings)
    expect(missing.status).toBe(404)
    expect(missing.headers.get('Cloudflare-CDN-Cache-Control')).toBe(
      PAGE_POLICY['Cloudflare-CDN-Cache-Control']
    )
    expect(tagsOf(missing)).toEqual(['page:/en/no-such-page', 'payload:navbar-data'])
  })

  it('sends no edge policy for a 404 when PAGE_CACHE_TTL=0 turns page caching off', async () => {
    const { bindings } = setup()
    const missing = await fetchPage('/en/no-such-page', { ...bindings, PAGE_CACHE_TTL: '0' })
    expect(missing.status).toBe(404)
    expect(missing.headers.get('Cloudflare-CDN-Cache-Control')).toBeNull()
  })
})
