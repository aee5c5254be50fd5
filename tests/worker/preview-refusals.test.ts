/**
 * What the preview refuses (src/preview/enter.ts, gate.ts, exit.ts): a link that is incomplete,
 * expired, tampered with, signed with another secret, names no page of the site or was closed by
 * exit; a request without a session, with a forged or expired one. Each refusal is 401 or 403,
 * plain text kept by no cache, sets no cookie and shows no page. A rotation keeps the previous
 * secret's links and sessions valid.
 */
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { Bindings } from '../../src/env'
import { linkSigningInput, newNonce, signInput } from '../../src/preview/signing'
import { fakeBackend } from '../support/worker/fake-backend'
import {
  enterPreview,
  minutesFromNow,
  previewLink,
  PREVIEW_SECRET,
  sessionCookie,
} from '../support/worker/preview'
import { fetchPage } from '../support/worker/worker'

let backend: ReturnType<typeof fakeBackend> | undefined
afterEach(() => {
  backend?.restore()
  backend = undefined
  vi.restoreAllMocks()
})

function bindings(overrides: Partial<Bindings> = {}): Bindings {
  backend ??= fakeBackend()
  return backend.env({ PREVIEW_SECRET, ...overrides })
}

/** Asserts a refusal: `status`, plain text, no-store, no cookie, no page, and no backend call. */
async function expectRefused(response: Response, status: number, says: RegExp) {
  const callsBefore = backend?.calls.length ?? 0
  expect(response.status).toBe(status)
  expect(response.headers.get('Content-Type')).toMatch(/^text\/plain/)
  expect(response.headers.get('Cache-Control')).toMatch(/no-store/)
  expect(response.headers.has('Set-Cookie')).toBe(false)
  expect(response.headers.has('Location')).toBe(false)
  const body = await response.text()
  expect(body).toMatch(says)
  expect(body).not.toContain('<html')
  expect(backend?.calls.length ?? 0).toBe(callsBefore)
}

const enter = (link: string, env = bindings()) => fetchPage(link, env, { redirect: 'manual' })

describe('GET /_preview/enter', () => {
  it('refuses a link with no parameters with 401, in Armenian (no page named)', async () => {
    await expectRefused(await enter('/_preview/enter'), 401, /հղումը թերի է/)
  })

  it('refuses an expired link with 403', async () => {
    await expectRefused(
      await enter(await previewLink('/en/about', { minutes: -1 })),
      403,
      /expired/
    )
  })

  it('refuses a link whose path, expiry or nonce was changed after signing', async () => {
    const link = await previewLink('/en/about', { minutes: 10 })
    const tampered = [
      link.replace('path=%2Fen%2Fabout', 'path=%2Fen%2Fcontact-us'),
      link.replace(/exp=\d+/, `exp=${minutesFromNow(600)}`),
      link.replace(/nonce=[\w-]+/, `nonce=${newNonce()}`),
      link.replace(/sig=[\w-]+/, 'sig=AAAA'),
    ]
    for (const address of tampered) {
      expect(address).not.toBe(link)
      await expectRefused(await enter(address), 403, /signature does not match/)
    }
  })

  it('refuses a link signed with another secret', async () => {
    await expectRefused(
      await enter(await previewLink('/en/about', { secret: 'another-secret' })),
      403,
      /signature does not match/
    )
  })

  it('refuses a path that is no page of the site, signed or not: no open redirect', async () => {
    for (const path of [
      '//evil.example',
      '/\\evil.example',
      'https://evil.example/',
      '/admin',
      '/en/about?x=1',
      '/hy/about',
    ]) {
      const expiresAt = minutesFromNow(10)
      const nonce = newNonce()
      const sig = await signInput(PREVIEW_SECRET, linkSigningInput({ path, expiresAt, nonce }))
      const query = new URLSearchParams({ path, exp: String(expiresAt), nonce, sig })
      await expectRefused(await enter(`/_preview/enter?${query}`), 403, /\S/)
    }
  })

  it('explains the refusal in the language of the page the link was for', async () => {
    const response = await enter(await previewLink('/ru/about', { minutes: -1 }))
    expect(response.headers.get('Content-Language')).toBe('ru')
    expect(await response.text()).toMatch(/истёк/)
  })

  it('answers 503 when the site has no preview secret', async () => {
    const link = await previewLink('/en/about')
    await expectRefused(
      await enter(link, bindings({ PREVIEW_SECRET: undefined })),
      503,
      /PREVIEW_SECRET/
    )
  })
})

describe('preview pages without a valid session', () => {
  it('answer 401 without a cookie, whatever the query or headers say', async () => {
    await expectRefused(
      await fetchPage('/_preview/en/about?preview=1&sig=x', bindings(), {
        headers: { 'X-Preview': '1', Authorization: 'Bearer x' },
      }),
      401,
      /No preview is open/
    )
  })

  it('answer 403 to a forged, tampered or expired cookie', async () => {
    const valid = await sessionCookie({ expiresAt: minutesFromNow(10) })
    const cookies = [
      'site_preview=forged',
      valid.replace(/\.\d+\.(\d+)\./, (_, end) => `.${Number(end) + 3600}.${end}.`),
      await sessionCookie({ expiresAt: minutesFromNow(10) }, 'another-secret'),
    ]
    for (const cookie of cookies) {
      await expectRefused(
        await fetchPage('/_preview/en/about', bindings(), { headers: { Cookie: cookie } }),
        403,
        /session is not valid/
      )
    }
    await expectRefused(
      await fetchPage('/_preview/en/about', bindings(), {
        headers: { Cookie: await sessionCookie({ expiresAt: minutesFromNow(-1) }) },
      }),
      403,
      /session has expired/
    )
  })
})

describe('exit', () => {
  it('clears the cookie and returns to the public page', async () => {
    const cookie = await enterPreview(await previewLink('/en/about'), bindings())
    const response = await fetchPage('/_preview/exit?path=/en/about', bindings(), {
      headers: { Cookie: cookie },
      redirect: 'manual',
    })
    expect(response.status).toBe(303)
    expect(response.headers.get('Location')).toBe('/en/about')
    expect(response.headers.get('Set-Cookie')).toMatch(/^site_preview=; Max-Age=0; Path=\/_preview/)
  })

  it('returns home for a path that is not a page of the site', async () => {
    for (const path of ['//evil.example', 'https://evil.example', '/admin']) {
      const response = await fetchPage(
        `/_preview/exit?path=${encodeURIComponent(path)}`,
        bindings(),
        { redirect: 'manual' }
      )
      expect(response.headers.get('Location')).toBe('/')
    }
  })

  it('closes the link: the session and a replay of the link are refused afterwards', async () => {
    const link = await previewLink('/en/about')
    const cookie = await enterPreview(link, bindings())
    await fetchPage('/_preview/exit?path=/en/about', bindings(), { headers: { Cookie: cookie } })

    await expectRefused(
      await fetchPage('/_preview/en/about', bindings(), { headers: { Cookie: cookie } }),
      403,
      /closed/
    )
    await expectRefused(await enter(link), 403, /closed/)
  })
})

describe('rotating PREVIEW_SECRET', () => {
  it('keeps links and sessions of the previous secret valid while it is PREVIEW_SECRET_PREVIOUS', async () => {
    const rotated = bindings({
      PREVIEW_SECRET: 'the-new-secret',
      PREVIEW_SECRET_PREVIOUS: PREVIEW_SECRET,
    })
    const oldSession = await sessionCookie({ expiresAt: minutesFromNow(10) })
    const cookie = await enterPreview(await previewLink('/en/about'), rotated)

    for (const session of [cookie, oldSession]) {
      const page = await fetchPage('/_preview/en/about', rotated, { headers: { Cookie: session } })
      expect(page.status).toBe(200)
    }
    const dropped = bindings({ PREVIEW_SECRET: 'the-new-secret' })
    await expectRefused(await enter(await previewLink('/en/about'), dropped), 403, /signature/)
  })
})
