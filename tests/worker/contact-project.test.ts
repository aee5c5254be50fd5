/**
 * A message says what it is about (docs/decisions/0040-a-message-names-its-project.md):
 * every project page links to the contact page with its project; that page names the project above
 * the form and keeps it across languages; the message the backend receives ends with the project's
 * title and page address, sent at once or through the outbox; a crafted reference gives the plain
 * form and reaches nothing; and each message the site keeps writes one VITALS data point.
 */
import { createExecutionContext, createMessageBatch, waitOnExecutionContext } from 'cloudflare:test'
import { env } from 'cloudflare:workers'
import { afterEach, describe, expect, it, vi } from 'vitest'
import seed from '../../content-service/seed/enterprises.json'
import { DEAD_LETTER_PREFIX } from '../../src/contact/dead-letters'
import type { OutboxMessage } from '../../src/contact/outbox-message'
import type { Bindings } from '../../src/env'
import worker from '../../src/index'
import { pageCacheKey } from '../../src/freshness'
import { COMMENTS_INPUT_MAX, contactPathAbout } from '../../src/shared/contact-fields'
import { getT } from '../../src/shared/i18n'
import { LANGUAGES, localizePath, type Lng } from '../../src/shared/languages'
import { PROJECT_KEYS } from '../support/page-addresses'
import {
  postForm,
  postJson,
  recordingQueue,
  referenceService,
  storedMessages,
  uniqueComments,
  VALID,
} from '../support/worker/contact'
import { recordingDataset } from '../support/worker/recording-dataset'
import { signedNow } from '../support/worker/signed-call'
import { select, selectOne } from '../support/worker/views'
import { fetchPage } from '../support/worker/worker'

afterEach(() => vi.restoreAllMocks())

const bindings = env as unknown as Bindings
const TITLE: Record<Lng, 'arm_title' | 'title' | 'ru_title'> = {
  hy: 'arm_title',
  en: 'title',
  ru: 'ru_title',
}
const arabkir = seed.enterprises[0]!
const ARABKIR_PAGE = '/enterprises/1-arabkir-residence'

/** The note the comments end with, for Arabkir Residence asked about in `lng`. */
function arabkirNote(lng: Lng): string {
  return `\n\n${getT(lng)('contact.projectLabel')}: ${arabkir[TITLE[lng]]}\nhttp://localhost${localizePath(ARABKIR_PAGE, lng)}`
}

async function page(path: string, env: Bindings = bindings) {
  const response = await fetchPage(path, env)
  return { response, html: await response.text() }
}

describe('a project page', () => {
  it.each(LANGUAGES)(
    'links to the contact page asking about its project, in %s, on every project page',
    async (lng) => {
      for (const key of PROJECT_KEYS) {
        const id = key.slice('/enterprises/'.length).split('-')[0]!
        const { response, html } = await page(localizePath(key, lng))
        expect(response.status).toBe(200)
        const links = await select(html, `.project__actions a[href="${contactPathAbout(id, lng)}"]`)
        expect(links, key).toHaveLength(1)
      }
    }
  )

  it('turns the CMS button that leads to the contact page into the question, and adds its own where the button leads elsewhere', async () => {
    const arabkirPage = (await page(`/en${ARABKIR_PAGE}`)).html
    const buttons = await select(arabkirPage, '.project__actions a.button')
    expect(buttons.map(({ attrs }) => attrs.href)).toEqual(['/en/contact-us?project=1'])
    expect(buttons[0]!.text).toContain('Ask about apartments')

    const plaza = (await page('/ru/enterprises/5-erebuni-plaza')).html
    const own = await select(plaza, '.project__actions a.button')
    expect(own.map(({ attrs }) => attrs.href)).toEqual([
      'https://www.google.com/maps/search/?api=1&query=Erebuni%2C+Yerevan',
      '/ru/contact-us?project=5',
    ])
    expect(own[1]!.text).toContain(getT('ru')('ui.askAboutProject'))
  })
})

describe('the contact page asking about a project', () => {
  it.each(LANGUAGES)('names the project above the form in %s, and carries its id', async (lng) => {
    const { response, html } = await page(contactPathAbout('1', lng))
    expect(response.status).toBe(200)
    const about = await selectOne(html, '.contact-form-area__about')
    expect(about?.text).toBe(getT(lng)('contact.aboutProject', { project: arabkir[TITLE[lng]] }))
    expect((await selectOne(html, 'form input[type=hidden][name=project]'))?.attrs.value).toBe('1')
    const room = COMMENTS_INPUT_MAX - arabkirNote(lng).length
    expect((await selectOne(html, 'textarea[name=comments]'))?.attrs.maxlength).toBe(String(room))
  })

  it('keeps the project in the language links and the language offers, and names the plain page canonical', async () => {
    const { html } = await page('/en/contact-us?project=1')
    const languages = await select(html, 'a.lang-dropdown__link[hreflang]')
    expect(languages.map(({ attrs }) => attrs.href).sort()).toEqual([
      '/contact-us?project=1',
      '/en/contact-us?project=1',
      '/ru/contact-us?project=1',
    ])
    const offers = await select(html, '.language-offer a[hreflang]')
    expect(offers.map(({ attrs }) => attrs.href).sort()).toEqual([
      '/contact-us?project=1',
      '/ru/contact-us?project=1',
    ])
    expect((await selectOne(html, 'link[rel=canonical]'))?.attrs.href).toBe(
      'http://localhost/en/contact-us'
    )
  })

  it.each([
    ['markup', '"><script>alert(1)</script>'],
    ['an unknown id', '999'],
    ['10 KB of text', 'x'.repeat(10 * 1024)],
  ])(
    'gives the plain form for %s, answered 200 and reflecting none of it',
    async (_, reference) => {
      const { response, html } = await page(
        `/en/contact-us?project=${encodeURIComponent(reference)}`
      )
      expect(response.status).toBe(200)
      expect(await selectOne(html, '.contact-form-area__about')).toBeUndefined()
      expect(await selectOne(html, 'input[name=project]')).toBeUndefined()
      expect(html).not.toContain('alert(1)')
      expect(html).not.toContain('x'.repeat(100))
      expect(html).not.toContain('project=999')
    }
  )

  it('keeps one cached page for every crafted value and every id that names no project', async () => {
    const key = (query = '') => pageCacheKey('http://localhost/en/contact-us', bindings, query)
    const plain = await fetchPage('/en/contact-us?project=999', bindings)
    expect(plain.headers.get('Cache-Control')).not.toContain('no-store')
    expect(await caches.default.match(key())).toBeDefined()
    for (const query of ['?project=%3Cb%3E', `?project=${'x'.repeat(10 * 1024)}`, '?project=998']) {
      const again = await fetchPage(`/en/contact-us${query}`, bindings)
      expect(again.headers.get('X-Page-Cache'), query).toBe('hit')
      expect(again.headers.get('ETag'), query).toBe(plain.headers.get('ETag'))
    }
    const known = await fetchPage('/en/contact-us?project=1', bindings)
    expect(known.headers.get('Cache-Control')).not.toContain('no-store')
    expect(await caches.default.match(key('?project=1'))).toBeDefined()
  })
})

describe('a message about a project', () => {
  it('reaches the backend with the project’s title and page address after the visitor’s text, in three fields', async () => {
    const service = referenceService()
    const comments = uniqueComments('island')
    const response = await postJson(service.bindings, {
      ...VALID,
      comments,
      project: '1',
      lng: 'ru',
    })
    expect(response.status).toBe(200)
    expect(service.messages().map((call) => call.body)).toEqual([
      { ...VALID, comments: comments + arabkirNote('ru') },
    ])
    expect(await storedMessages(comments + arabkirNote('ru'))).toHaveLength(1)
  })

  it('reaches the backend from the plain form too, which redirects to the success notice', async () => {
    const service = referenceService()
    const comments = uniqueComments('plain form')
    const response = await postForm('/contact-us', service.bindings, {
      ...VALID,
      comments,
      project: '1',
      website: '',
    })
    expect(response.status).toBe(303)
    expect(response.headers.get('Location')).toBe('/contact-us?sent=1')
    expect(service.messages()[0]?.body).toEqual({
      ...VALID,
      comments: comments + arabkirNote('hy'),
    })
  })

  it.each([
    ['markup', '<script>alert(1)</script>'],
    ['an unknown id', '999'],
    ['6 KB of text (a body holds at most 8 KB)', 'x'.repeat(6 * 1024)],
  ])(
    'goes without a project when the reference is %s: nothing of it is forwarded',
    async (_, project) => {
      const service = referenceService()
      const comments = uniqueComments('crafted')
      const response = await postJson(service.bindings, { ...VALID, comments, project })
      expect(response.status).toBe(200)
      expect(service.messages()[0]?.body).toEqual({ ...VALID, comments })
    }
  )

  it('is refused (422) when the visitor’s text leaves no room for the note, and shown again with the project', async () => {
    const service = referenceService()
    const room = COMMENTS_INPUT_MAX - arabkirNote('en').length
    const tooLong = { ...VALID, comments: 'a'.repeat(room + 1), project: '1', lng: 'en' }
    const json = await postJson(service.bindings, tooLong)
    expect(json.status).toBe(422)
    expect(await json.json()).toEqual({ ok: false, errors: { comments: 'contact.messageTooLong' } })

    const form = await postForm('/en/contact-us', service.bindings, { ...tooLong, website: '' })
    expect(form.status).toBe(422)
    const html = await form.text()
    expect((await selectOne(html, '.contact-form-area__about'))?.text).toContain(
      'Arabkir Residence'
    )
    expect(html).toContain(`Message must be no more than ${room} characters`)
    expect(service.messages()).toHaveLength(0)

    const fits = await postJson(service.bindings, { ...tooLong, comments: 'a'.repeat(room) })
    expect(fits.status).toBe(200)
    expect((service.messages()[0]?.body as { comments: string }).comments).toHaveLength(
      COMMENTS_INPUT_MAX
    )
  })

  it('is queued with its note when the backend is down, and delivered with it once it is back', async () => {
    const service = referenceService()
    service.outage = () => new Response('{"message":"down"}', { status: 503 })
    const local = recordingQueue({ forwardTo: bindings.CONTACT_QUEUE })
    const comments = uniqueComments('outage')
    const response = await postJson(
      { ...service.bindings, CONTACT_QUEUE: local.queue },
      { ...VALID, comments, project: '1', lng: 'en' }
    )
    expect(response.status).toBe(200)
    const [sent] = local.sent as [{ body: { message: unknown } }]
    expect(sent.body.message).toEqual({ ...VALID, comments: comments + arabkirNote('en') })

    // The test pool's consumer delivers it through the pool's own CONTENT binding, which is up.
    const stored = await vi.waitUntil(
      async () => {
        const rows = await storedMessages(comments + arabkirNote('en'))
        return rows.length > 0 && rows
      },
      { timeout: 30_000, interval: 200 }
    )
    expect(stored).toMatchObject([{ ...VALID, comments: comments + arabkirNote('en') }])
  }, 60_000)

  it('stays as it was sent through a dead letter and `contact:resend`', async () => {
    const service = referenceService()
    service.outage = () => new Response('{"message":"down"}', { status: 503 })
    const local = recordingQueue()
    const comments = uniqueComments('dead letter')
    await postJson(
      { ...service.bindings, CONTACT_QUEUE: local.queue },
      { ...VALID, comments, project: '1', lng: 'ru' }
    )
    const [{ body }] = local.sent as [{ body: OutboxMessage }]

    // A later delivery is refused: the message becomes a dead letter at once.
    service.outage = () =>
      new Response('{"message":"Refused"}', {
        status: 400,
        headers: { 'Content-Type': 'application/json' },
      })
    const ctx = createExecutionContext()
    const batch = createMessageBatch('erebuni-site-contact', [
      { id: 'm0', timestamp: new Date(), attempts: 2, body },
    ])
    await worker.queue(batch, service.bindings, ctx)
    await waitOnExecutionContext(ctx)
    const kept = await bindings.CONTACT_OUTBOX.get<OutboxMessage>(
      DEAD_LETTER_PREFIX + body.id,
      'json'
    )
    expect(kept?.message.comments).toBe(comments + arabkirNote('ru'))

    const secret = 'project-resend-secret'
    const call = JSON.stringify({ ids: [body.id] })
    const resent = await fetchPage(
      '/api/contact/resend',
      { ...bindings, PUBLISH_SECRET: secret },
      {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', ...(await signedNow(secret, call)) },
        body: call,
      }
    )
    expect(await resent.json()).toMatchObject({ resent: [body.id] })
    const stored = await vi.waitUntil(
      async () => {
        const rows = await storedMessages(comments + arabkirNote('ru'))
        return rows.length > 0 && rows
      },
      { timeout: 30_000, interval: 200 }
    )
    expect(stored).toMatchObject([{ ...VALID, comments: comments + arabkirNote('ru') }])
  }, 60_000)
})

describe('the data point of a message', () => {
  it('is written once for a message kept, naming its page, project, language and device, nothing typed', async () => {
    const service = referenceService()
    const { points, dataset } = recordingDataset()
    const comments = uniqueComments('counted')
    const response = await postJson(
      { ...service.bindings, VITALS: dataset },
      { ...VALID, comments, project: '1', lng: 'en' },
      {
        headers: { 'User-Agent': 'Mozilla/5.0 (Linux; Android 14) Mobile Safari/537.36' },
      }
    )
    expect(response.status).toBe(200)
    expect(points).toEqual([
      { indexes: ['message'], blobs: ['message', '/contact-us', 'en', '1', 'phone', ''] },
    ])
    const written = JSON.stringify(points)
    for (const typed of [VALID.name, VALID.email, comments]) expect(written).not.toContain(typed)

    const plain = await postForm(
      '/ru/contact-us',
      { ...service.bindings, VITALS: dataset },
      { ...VALID, comments: uniqueComments('plain'), website: '' }
    )
    expect(plain.status).toBe(303)
    expect(points[1]).toEqual({
      indexes: ['message'],
      blobs: ['message', '/contact-us', 'ru', '', 'desktop', ''],
    })
  })

  it('is written for a message the outbox queued during an outage', async () => {
    const service = referenceService()
    service.outage = () => new Response('{}', { status: 503 })
    const { points, dataset } = recordingDataset()
    const { queue } = recordingQueue()
    const response = await postJson(
      { ...service.bindings, VITALS: dataset, CONTACT_QUEUE: queue },
      { ...VALID, comments: uniqueComments('queued') }
    )
    expect(response.status).toBe(200)
    expect(points).toHaveLength(1)
  })

  it.each([
    ['refused by the schema', 422, { ...VALID, comments: 'x' }, {}],
    ['caught by the honeypot', 200, { ...VALID, website: 'spam' }, {}],
    [
      'rate-limited',
      429,
      VALID,
      { CONTACT_RATE_LIMITER: { limit: async () => ({ success: false }) } as RateLimit },
    ],
  ] as const)('is not written for a submission %s', async (_, status, body, overrides) => {
    const service = referenceService()
    const { points, dataset } = recordingDataset()
    const response = await postJson({ ...service.bindings, ...overrides, VITALS: dataset }, body)
    expect(response.status).toBe(status)
    expect(points).toEqual([])
  })

  it('is not written for a message the backend refuses', async () => {
    const service = referenceService()
    service.outage = () =>
      new Response('{"message":"Refused"}', {
        status: 400,
        headers: { 'Content-Type': 'application/json' },
      })
    const { points, dataset } = recordingDataset()
    const response = await postJson({ ...service.bindings, VITALS: dataset }, VALID)
    expect(response.status).toBe(502)
    expect(points).toEqual([])
  })
})
