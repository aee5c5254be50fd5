/**
 * Validated markup: every page in every language, and every error view, passes html-validate with
 * the project's .htmlvalidate.json. Pages are fetched from the worker as a visitor would get them,
 * once with the reference content (content-service/seed, the richest payloads: carousel, all
 * sections) and once with the sparse sample payloads (the fallbacks).
 *
 * html-validate runs in workerd through its browser build, which takes its config as an object.
 * .htmlvalidate.json extends the recommended and document presets, and changes six rules:
 * - four follow React's serializer, all valid HTML: void elements written `<meta/>` (void-style),
 *   React's camel-case attributes `charSet`, `hrefLang`, `fetchPriority` (attr-case; attribute names
 *   are case-insensitive), and boolean or empty attributes written `hidden=""`
 *   (attribute-boolean-style, attribute-empty-style);
 * - require-sri asks for `integrity` only on cross-origin files: ours are same-origin with
 *   content-hashed names;
 * - no-inline-style also allows `background`: a photo's placeholder, computed per image at the
 *   edge, is painted as its <img>'s inline background (src/views/components/image.tsx).
 */
import {
  HtmlValidate,
  StaticConfigLoader,
  type ConfigData,
  type Message,
} from 'html-validate/browser'
import { afterEach, describe, expect, it, vi } from 'vitest'
import about from '../../content-service/seed/about.json'
import contactUs from '../../content-service/seed/contact-us.json'
import enterprises from '../../content-service/seed/enterprises.json'
import home from '../../content-service/seed/home.json'
import navbar from '../../content-service/seed/navbar.json'
import pageMeta from '../../content-service/seed/page-meta.json'
import config from '../../.htmlvalidate.json'
import { unexpectedErrorHtml } from '../../src/views/pages/error-views'
import { fakeBackend, json, type Answer } from '../support/worker/fake-backend'
import { fetchPage } from '../support/worker/worker'
import { PAGE_ADDRESSES } from '../support/page-addresses'

// A JSON import types each rule's [severity, options] as a plain array, hence the cast.
const validator = new HtmlValidate(new StaticConfigLoader(config as unknown as ConfigData))

let backend: ReturnType<typeof fakeBackend> | undefined
afterEach(() => {
  backend?.restore()
  vi.restoreAllMocks()
})

/** The reference content service's seed, answered per endpoint (the home page's meta for every page). */
const reference: Record<string, Answer> = {
  'get-home-page': json({ payload: home }),
  'get-about-page': json({ payload: about }),
  'get-enterprises-page': json({ payload: enterprises }),
  'contact-us': json({ payload: contactUs }),
  'navbar-data': json({ payload: navbar }),
  'page-meta-data': json({ payload: pageMeta['/'] }),
}

function describeMessages(messages: Message[]): string[] {
  return messages.map(
    (m) => `${m.ruleId} at ${m.line}:${m.column}: ${m.message} [${m.selector ?? ''}]`
  )
}

async function validate(html: string, name: string): Promise<string[]> {
  const report = await validator.validateString(html, name)
  return describeMessages(report.results.flatMap((result) => result.messages))
}

describe('markup of every page', () => {
  for (const [content, answers] of [
    ['reference content', reference],
    ['sparse content', {}],
  ] as const) {
    for (const path of PAGE_ADDRESSES) {
      it(`${path} with ${content} has no validation errors`, async () => {
        backend = fakeBackend(answers)
        const response = await fetchPage(path, backend.env())
        expect(response.status).toBe(200)
        expect(await validate(await response.text(), path)).toEqual([])
      })
    }
  }
})

describe('markup of the error views', () => {
  it.each(['/nope', '/en/nope', '/ru/about/team'])(
    'the 404 page at %s has no validation errors',
    async (path) => {
      backend = fakeBackend()
      const response = await fetchPage(path, backend.env())
      expect(response.status).toBe(404)
      expect(await validate(await response.text(), path)).toEqual([])
    }
  )

  it.each(['/', '/en/about', '/ru/contact-us'])(
    'the load-failure page at %s has no validation errors',
    async (path) => {
      backend = fakeBackend({ 'navbar-data': json({}, 500) })
      const response = await fetchPage(path, backend.env())
      expect(response.status).toBe(503)
      expect(await validate(await response.text(), path)).toEqual([])
    }
  )

  it.each(['hy', 'en', 'ru'] as const)(
    'the last-resort error page in %s has no validation errors',
    async (lng) => {
      expect(await validate(unexpectedErrorHtml(lng, 500), `500-${lng}`)).toEqual([])
    }
  )
})
