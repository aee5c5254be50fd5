/**
 * The contact form end to end, in hy, en and ru, with JavaScript on (the island: client-side
 * validation, submitting state, toasts) and off (the plain form: 422 page, redirect-after-post),
 * checking what the reference content service stored in its local D1 database. The client-side
 * validation runs in every language (its messages are the language's); each other behaviour in
 * the languages named in TURNS, so that every language sends a message and none is skipped
 * (docs/decisions/0034; the worker tests answer the 422 page and the notice in every language).
 *
 * Every test sends its own CF-Connecting-IP, as Cloudflare's edge would, so the per-client rate
 * limit (5 a minute) counts each test apart.
 */
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { gzipSync } from 'node:zlib'
import { en } from '../../src/shared/i18n/en'
import { hy } from '../../src/shared/i18n/hy'
import { ru } from '../../src/shared/i18n/ru'
import { expect, gotoLoaded, test, type Page } from '../support/e2e/fixtures'
import {
  storedMessages as readStoredMessages,
  type StoredMessage,
} from '../support/e2e/stored-messages'

const root = fileURLToPath(new URL('../../', import.meta.url))
const seed = JSON.parse(
  readFileSync(`${root}content-service/seed/contact-us.json`, 'utf8')
) as Record<string, string>
const arabkir = (
  JSON.parse(readFileSync(`${root}content-service/seed/enterprises.json`, 'utf8')) as {
    enterprises: Record<string, string>[]
  }
).enterprises[0]!

const LANGUAGES = [
  { lng: 'hy', page: '/contact-us', prefix: 'arm_', dictionary: hy, name: 'Անի Սարգսյան' },
  { lng: 'en', page: '/en/contact-us', prefix: '', dictionary: en, name: "Mary-Jane O'Neil" },
  { lng: 'ru', page: '/ru/contact-us', prefix: 'ru_', dictionary: ru, name: 'Анна Петрова' },
] as const

/**
 * The languages each behaviour beyond the validation runs in: the code is the same in each, and the
 * sends without JavaScript are in the two languages whose names need more than ASCII in a form post.
 */
const TURNS = {
  sendWithScript: ['en'],
  backendError: ['ru'],
  invalidWithoutScript: ['hy'],
  sendWithoutScript: ['hy', 'ru'],
} satisfies Record<string, (typeof LANGUAGES)[number]['lng'][]>

/** Whether `lng` runs the behaviour `turn` (TURNS). */
function inTurn(turn: keyof typeof TURNS, lng: string): boolean {
  return (TURNS[turn] as string[]).includes(lng)
}

/** A field of the seeded contact content in one language. */
function content(prefix: string, field: string): string {
  return seed[`${prefix}${field}`] || seed[field] || ''
}

/** A form field by its label, exactly: the page also has a region named after the form. */
function field(page: Page, label: string) {
  return page.getByRole('textbox', { name: label, exact: true })
}

/** A toast with this text, wherever the toaster renders it. */
function toast(page: Page, text: string) {
  return page.getByText(text, { exact: true }).first()
}

let clients = 0
/** Gives the page's requests a client address of their own (see the header). */
async function asNewClient(page: Page): Promise<void> {
  clients += 1
  await page.setExtraHTTPHeaders({
    'CF-Connecting-IP': `e2e-${process.pid}-${Date.now()}-${clients}`,
  })
}

/** A text no other run sends, to find this test's message in D1. */
function uniqueComments(lng: string): string {
  return `E2E ${lng} message ${process.pid}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`
}

/**
 * The messages the reference service stored with these comments, in the local database the e2e
 * server uses (.wrangler/state, see package.json `e2e:server`), without their idempotency keys.
 */
async function storedMessages(comments: string): Promise<Omit<StoredMessage, 'idempotency_key'>[]> {
  return readStoredMessages(`${root}.wrangler/state`, comments).map(
    ({ idempotency_key: _key, ...message }) => message
  )
}

/** Reads D1 only when the config started the server, whose database we know. */
const canReadD1 = !process.env.E2E_BASE_URL

for (const { lng, page: path, prefix, dictionary: t, name } of LANGUAGES) {
  const labels = {
    name: content(prefix, 'nameLabel'),
    email: content(prefix, 'emailLabel'),
    message: content(prefix, 'messageLabel'),
  }
  const sendText = content(prefix, 'sendButtonText')
  const sendingText = content(prefix, 'sendingText')

  test.describe(`contact form in ${lng}, JavaScript on`, () => {
    test.beforeEach(async ({ page }) => {
      await asNewClient(page)
      await gotoLoaded(page, path)
    })

    test('validates on submit without a request, then again on every change', async ({ page }) => {
      let posts = 0
      page.on('request', (request) => {
        if (request.method() === 'POST') posts += 1
      })
      await page.getByRole('button', { name: sendText }).click()

      await expect(page.getByText(t.contact.fillAllFields)).toBeVisible()
      await expect(page.getByText(t.contact.requiredName)).toBeVisible()
      await expect(page.getByText(t.contact.requiredEmail)).toBeVisible()
      await expect(page.getByText(t.contact.requiredMessage)).toBeVisible()
      await expect(field(page, labels.name)).toHaveAttribute('aria-invalid', 'true')
      await expect(field(page, labels.email)).toHaveAttribute('aria-invalid', 'true')
      await expect(field(page, labels.name)).toBeFocused()

      await field(page, labels.name).fill('A')
      await expect(page.getByText(t.contact.nameTooShort)).toBeVisible()
      await field(page, labels.name).fill('A1')
      await expect(page.getByText(t.contact.invalidName)).toBeVisible()
      await field(page, labels.name).fill(name)
      await expect(page.getByText(t.contact.invalidName)).toBeHidden()
      await field(page, labels.email).fill('not-an-email')
      await expect(page.getByText(t.contact.invalidEmail)).toBeVisible()
      await field(page, labels.message).fill('   ')
      await expect(page.getByText(t.contact.requiredMessage)).toBeVisible()
      await expect(page.getByText(t.contact.fillAllFields)).toBeVisible()
      await field(page, labels.message).fill('ok')
      await expect(page.getByText(t.contact.fillAllFields)).toBeHidden()
      expect(posts).toBe(0)
    })

    if (inTurn('sendWithScript', lng))
      test('sends once, shows the sending state, clears the form and toasts success; the backend stored it', async ({
        page,
      }) => {
        const comments = uniqueComments(lng)
        let release: () => void = () => {}
        const held = new Promise<void>((resolve) => (release = resolve))
        const bodies: unknown[] = []
        await page.route('**/api/contact', async (route) => {
          bodies.push(route.request().postDataJSON())
          await held
          await route.continue()
        })

        await field(page, labels.name).fill(`  ${name} `)
        await field(page, labels.email).fill('visitor@example.com')
        await field(page, labels.message).fill(comments)
        const button = page.getByRole('button', { name: sendText })
        await button.click()

        const sending = page.getByRole('button', { name: sendingText })
        await expect(sending).toBeDisabled()
        // A second submit while the first is in flight (Enter in a field) sends nothing.
        await field(page, labels.email).press('Enter')
        release()

        await expect(toast(page, t.contact.success)).toBeVisible()
        await expect(button).toBeEnabled()
        await expect(field(page, labels.name)).toHaveValue('')
        await expect(field(page, labels.email)).toHaveValue('')
        await expect(field(page, labels.message)).toHaveValue('')
        expect(bodies).toEqual([{ name, email: 'visitor@example.com', comments, website: '', lng }])
        if (canReadD1)
          expect(await storedMessages(comments)).toEqual([
            { name, email: 'visitor@example.com', comments },
          ])
      })

    if (inTurn('backendError', lng))
      test('keeps the input and toasts the backend’s message, or the generic error without one', async ({
        page,
        pageProblems,
      }) => {
        pageProblems.allow('/api/contact', 502)
        const answers = [{ ok: false, message: 'Mailbox is full' }, { ok: false }]
        await page.route('**/api/contact', (route) =>
          route.fulfill({ status: 502, json: answers.shift() })
        )

        await field(page, labels.name).fill(name)
        await field(page, labels.email).fill('visitor@example.com')
        await field(page, labels.message).fill('Hello there')
        await page.getByRole('button', { name: sendText }).click()
        await expect(toast(page, 'Mailbox is full')).toBeVisible()
        await expect(field(page, labels.name)).toHaveValue(name)

        await page.getByRole('button', { name: sendText }).click()
        await expect(toast(page, t.contact.error)).toBeVisible()
        await expect(field(page, labels.message)).toHaveValue('Hello there')
      })
  })

  test.describe(`contact form in ${lng}, JavaScript off`, () => {
    test.beforeEach(async ({ noJsPage, pageProblems }) => {
      // With JavaScript off, Chromium refuses the entry's module preload ('csp'): expected here.
      pageProblems.allow(/\/assets\/.+\.js$/)
      await asNewClient(noJsPage)
    })

    if (inTurn('invalidWithoutScript', lng))
      test('answers invalid input with the form again, input kept and messages beside each field', async ({
        noJsPage,
        pageProblems,
      }) => {
        pageProblems.allow(path, 422)
        await noJsPage.goto(path)
        await field(noJsPage, labels.name).fill('A')
        await field(noJsPage, labels.message).fill('Hello there')

        const [response] = await Promise.all([
          noJsPage.waitForResponse((r) => r.request().method() === 'POST'),
          noJsPage.getByRole('button', { name: sendText }).click(),
        ])

        expect(response.status()).toBe(422)
        await expect(field(noJsPage, labels.name)).toHaveValue('A')
        await expect(field(noJsPage, labels.message)).toHaveValue('Hello there')
        await expect(field(noJsPage, labels.name)).toHaveAccessibleDescription(
          t.contact.nameTooShort
        )
        await expect(field(noJsPage, labels.email)).toHaveAccessibleDescription(
          t.contact.requiredEmail
        )
        await expect(
          noJsPage.getByRole('alert').filter({ hasText: t.contact.fillAllFields })
        ).toBeVisible()
      })

    if (inTurn('sendWithoutScript', lng))
      test('sends, redirects to the page with a success notice, and the backend stored it', async ({
        noJsPage,
      }) => {
        const comments = uniqueComments(lng)
        await noJsPage.goto(path)
        await field(noJsPage, labels.name).fill(` ${name}  `)
        await field(noJsPage, labels.email).fill('no-js@example.com')
        await field(noJsPage, labels.message).fill(comments)
        await noJsPage.getByRole('button', { name: sendText }).click()

        await expect(noJsPage).toHaveURL(`${path}?sent=1`)
        await expect(
          noJsPage.getByRole('status').filter({ hasText: t.contact.success })
        ).toBeVisible()
        if (canReadD1)
          expect(await storedMessages(comments)).toEqual([
            { name, email: 'no-js@example.com', comments },
          ])
      })
  })
}

test.describe('contact form reached before it has hydrated', () => {
  test('sends what the visitor typed and submitted meanwhile, once, as the hydrated form does', async ({
    page,
  }) => {
    await asNewClient(page)
    // Hold the form's chunk until the visitor has typed and pressed the button (client/triggers.ts).
    let release = () => {}
    const held = new Promise<void>((resolve) => (release = resolve))
    let requested = false
    await page.route(/\/assets\/contact-form-[\w-]+\.js$/, async (route) => {
      requested = true
      await held
      await route.continue()
    })
    const posts: string[] = []
    page.on('request', (request) => {
      if (request.method() === 'POST' && request.url().endsWith('/api/contact'))
        posts.push(request.postData() ?? '')
    })
    await page.goto('/en/contact-us', { waitUntil: 'load' })
    const comments = uniqueComments('early')
    await field(page, content('', 'nameLabel')).fill('Early Visitor')
    await field(page, content('', 'emailLabel')).fill('early@example.com')
    await field(page, content('', 'messageLabel')).fill(comments)
    await page.getByRole('button', { name: content('', 'sendButtonText') }).click()
    // The form's hydration has started: its chunk is asked for, and held.
    await expect.poll(() => requested).toBe(true)
    release()
    await expect(toast(page, en.contact.success)).toBeVisible()
    expect(posts).toHaveLength(1)
    expect(JSON.parse(posts[0]!)).toMatchObject({
      name: 'Early Visitor',
      email: 'early@example.com',
      comments,
    })
    // The page did not leave for the no-JavaScript answer.
    expect(new URL(page.url()).pathname).toBe('/en/contact-us')
  })
})

/**
 * A question about a project (decision 0040), from the project's page to what the backend stored:
 * without JavaScript in Russian, with the island in Armenian (the worker tests cover each language).
 */
test.describe('a question about a project', () => {
  const ASKS = [
    { lng: 'ru', prefix: '/ru', fields: 'ru_', title: arabkir.ru_title!, t: ru, script: false },
    { lng: 'hy', prefix: '', fields: 'arm_', title: arabkir.arm_title!, t: hy, script: true },
  ] as const
  for (const { lng, prefix, fields, title, t, script } of ASKS)
    test(`leads from the project's page to a form that names it and sends it along, JavaScript ${script ? 'on' : 'off'}`, async ({
      page: scriptPage,
      noJsPage,
      pageProblems,
    }) => {
      const page = script ? scriptPage : noJsPage
      if (!script) pageProblems.allow(/\/assets\/.+\.js$/)
      await asNewClient(page)
      const projectPage = `${prefix}/enterprises/1-arabkir-residence`
      await page.goto(projectPage)
      await page.locator(`.project__actions a[href="${prefix}/contact-us?project=1"]`).click()
      await expect(page).toHaveURL(`${prefix}/contact-us?project=1`)
      await expect(page.locator('.contact-form-area__about')).toHaveText(
        t.contact.aboutProject.replace('{{project}}', title)
      )
      // The language links keep the project: the dropdown's (the offer's, hidden, keeps it too).
      await expect(page.locator('.lang-dropdown__link[hreflang="en"]')).toHaveAttribute(
        'href',
        '/en/contact-us?project=1'
      )

      const comments = uniqueComments(`project ${lng}`)
      await field(page, content(fields, 'nameLabel')).fill('Anna')
      await field(page, content(fields, 'emailLabel')).fill('asks@example.com')
      await field(page, content(fields, 'messageLabel')).fill(comments)
      await page.getByRole('button', { name: content(fields, 'sendButtonText') }).click()
      if (script) await expect(toast(page, t.contact.success)).toBeVisible()
      else await expect(page).toHaveURL(`${prefix}/contact-us?sent=1`)

      const origin = new URL(page.url()).origin
      const note = `\n\n${t.contact.projectLabel}: ${title}\n${origin}${projectPage}`
      if (canReadD1)
        expect(await storedMessages(comments + note)).toEqual([
          { name: 'Anna', email: 'asks@example.com', comments: comments + note },
        ])
    })
})

test.describe('contact page weight', () => {
  test('ships at most 95 KB of gzipped JavaScript, the form island included', async ({ page }) => {
    // Which scripts the page loads (the same six in 20 runs on a busy machine); their bytes are
    // fetched apart, since a response the browser served from its prefetch cache has no body here
    // (0 KB in some runs), and what the page loads must not depend on when it loaded it.
    const scripts = new Set<string>()
    page.on('request', (request) => {
      if (request.resourceType() === 'script' || request.url().endsWith('.js'))
        scripts.add(request.url())
    })
    await gotoLoaded(page, '/en/contact-us')
    await page.waitForLoadState('networkidle')

    const sizes = await Promise.all(
      [...scripts].map(
        async (url) =>
          [
            new URL(url).pathname,
            gzipSync(await (await page.request.get(url)).body()).length,
          ] as const
      )
    )
    const total = sizes.reduce((sum, [, size]) => sum + size, 0)
    test.info().annotations.push({
      type: 'contact page JS (gzip)',
      description: sizes.map(([file, size]) => `${file} ${(size / 1024).toFixed(1)} KB`).join(', '),
    })
    expect(sizes.some(([file]) => file.includes('/contact-form-'))).toBe(true)
    expect(total / 1024).toBeLessThanOrEqual(95)
  })
})
