/**
 * The contact form without JavaScript: POST /contact-us, /en/contact-us and /ru/contact-us answer
 * with redirect-after-post or the page again, and GET shows the form with the content's texts.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { fakeBackend, json, samplePayloads } from '../support/worker/fake-backend'
import {
  newClient,
  postForm,
  recordingQueue,
  referenceService,
  VALID,
} from '../support/worker/contact'
import { fetchPage } from '../support/worker/worker'

let backend: ReturnType<typeof fakeBackend> | undefined
afterEach(() => {
  backend?.restore()
  backend = undefined
})

const LANGUAGES = [
  {
    lng: 'hy',
    page: '/contact-us',
    name: 'Անի',
    success: 'Ձեր հաղորդագրությունը հաջողությամբ ուղարկվեց',
    required: 'Խնդրում ենք մուտքագրել ձեր էլ. փոստը',
  },
  {
    lng: 'en',
    page: '/en/contact-us',
    name: 'Anna',
    success: 'Your message has been sent successfully!',
    required: 'Please enter your email',
  },
  {
    lng: 'ru',
    page: '/ru/contact-us',
    name: 'Анна',
    success: 'Ваше сообщение успешно отправлено!',
    required: 'Пожалуйста, введите ваш e-mail',
  },
] as const

/** The form element of a page, with its markup. */
function formOf(html: string): string {
  return /<form[\s\S]*?<\/form>/.exec(html)?.[0] ?? ''
}

describe('the contact page form', () => {
  it.each(LANGUAGES)(
    'posts to the page itself in $lng, without native validation',
    async ({ page }) => {
      backend = fakeBackend()
      const form = formOf(await (await fetchPage(page, backend.env())).text())
      expect(form).toMatch(/method="post"/)
      expect(form).toContain(`action="${page}"`)
      expect(form).toMatch(/noValidate=""/i)
    }
  )

  it('associates every label with its input and sets the hard limits', async () => {
    backend = fakeBackend()
    const form = formOf(await (await fetchPage('/en/contact-us', backend.env())).text())
    for (const [id, name] of [
      ['contact-name', 'name'],
      ['contact-email', 'email'],
      ['contact-comments', 'comments'],
    ]) {
      expect(form).toContain(`<label for="${id}">`)
      expect(form).toMatch(new RegExp(`id="${id}"[^>]*name="${name}"`))
    }
    expect(form).toMatch(/id="contact-name"[^>]*maxLength="50"/)
    expect(form).toMatch(/id="contact-comments"[^>]*maxLength="500"/)
  })

  it('takes labels, placeholders, title and button text from the content, per language', async () => {
    const content = {
      ...(samplePayloads['contact-us'] as object),
      contactFormTitle: 'Write to us',
      ru_contactFormTitle: 'Пишите нам',
      nameLabel: 'Your name',
      ru_nameLabel: 'Как вас зовут',
      ru_namePlaceholder: 'Иван',
      ru_emailLabel: 'Почта',
      ru_messageLabel: 'Ваш вопрос',
      ru_sendButtonText: 'Отправить',
      ru_sendingText: 'Отправляем…',
    }
    backend = fakeBackend({ 'contact-us': json({ payload: content }) })
    const html = await (await fetchPage('/ru/contact-us', backend.env())).text()
    const form = formOf(html)
    expect(form).toContain('Пишите нам')
    expect(form).toContain('<label for="contact-name">Как вас зовут</label>')
    expect(form).toContain('placeholder="Иван"')
    expect(form).toContain('<label for="contact-email">Почта</label>')
    expect(form).toContain('<label for="contact-comments">Ваш вопрос</label>')
    expect(form).toMatch(/<button type="submit"[^>]*>Отправить<\/button>/)
    // The island gets the sending text and every message it can show, in the page's language.
    expect(html).toContain('"sending":"Отправляем…"')
    expect(html).toContain('"contact.requiredName":"Пожалуйста, введите ваше имя"')
  })

  it('falls back to the dictionary when the content has no form texts', async () => {
    backend = fakeBackend({ 'contact-us': json({ payload: {} }) })
    const html = await (await fetchPage('/en/contact-us', backend.env())).text()
    const form = formOf(html)
    expect(form).toContain('<label for="contact-name">Name</label>')
    expect(form).toContain('placeholder="Your name"')
    expect(form).toMatch(/<button type="submit"[^>]*>Send Message<\/button>/)
    expect(html).toContain('"sending":"Sending..."')
  })

  it.each(LANGUAGES)(
    'shows the success notice after a redirect in $lng',
    async ({ page, success }) => {
      backend = fakeBackend()
      const response = await fetchPage(`${page}?sent=1`, backend.env())
      expect(response.status).toBe(200)
      expect(formOf(await response.text())).toMatch(new RegExp(`role="status">${success}</p>`))
    }
  )
})

describe('POST to the contact page (no JavaScript)', () => {
  it.each(LANGUAGES)(
    'forwards and redirects with 303 to the page with ?sent=1 in $lng',
    async ({ page, name }) => {
      const service = referenceService()
      const response = await postForm(page, service.bindings, {
        ...VALID,
        name: ` ${name} `,
        website: '',
      })
      expect(response.status).toBe(303)
      expect(response.headers.get('Location')).toBe(`${page}?sent=1`)
      expect(response.headers.get('Cache-Control')).toBe('no-store')
      expect(service.messages().map((call) => call.body)).toEqual([{ ...VALID, name }])
    }
  )

  it.each(LANGUAGES)(
    'answers 422 with the input and the messages in $lng, without calling the backend',
    async ({ page, lng, required }) => {
      backend = fakeBackend()
      const response = await postForm(page, backend.env(), {
        name: ' <Anna> ',
        email: '',
        comments: 'Line "one"\nLine two',
      })
      expect(response.status).toBe(422)
      expect(response.headers.get('Cache-Control')).toBe('no-store')
      const html = await response.text()
      expect(html).toContain(`<html lang="${lng}">`)
      const form = formOf(html)
      expect(form).toMatch(
        /id="contact-name"[^>]*aria-invalid="true"[^>]*aria-describedby="contact-name-error"[^>]*value=" &lt;Anna&gt; "/
      )
      expect(form).toContain(
        `<p id="contact-email-error" class="contact-form__error">${required}</p>`
      )
      expect(form).toContain('>Line &quot;one&quot;\nLine two</textarea>')
      expect(form).toMatch(/class="contact-form__summary" role="alert">[^<]+</)
      expect(backend.callsTo('messages')).toHaveLength(0)
    }
  )

  it('shows the backend’s message and keeps the input when the backend refuses the message (502)', async () => {
    backend = fakeBackend({ messages: json({ message: 'Mailbox is full' }, 400) })
    const response = await postForm('/en/contact-us', backend.env(), VALID)
    expect(response.status).toBe(502)
    const form = formOf(await response.text())
    expect(form).toContain('role="alert">Mailbox is full</p>')
    expect(form).toContain(`value="${VALID.name}"`)
    expect(form).toContain(`>${VALID.comments}</textarea>`)
  })

  it('shows the generic error in the page’s language when the backend times out and the queue cannot take the message (504)', async () => {
    backend = fakeBackend({ messages: 'hang' })
    const response = await postForm(
      '/ru/contact-us',
      backend.env({ API_TIMEOUT_MS: '150', CONTACT_QUEUE: recordingQueue({ fail: true }).queue }),
      VALID
    )
    expect(response.status).toBe(504)
    expect(formOf(await response.text())).toContain(
      'role="alert">Что-то пошло не так. Пожалуйста, попробуйте позже.</p>'
    )
  })

  it('answers a filled honeypot with the usual redirect and never forwards it', async () => {
    const service = referenceService()
    const response = await postForm('/contact-us', service.bindings, { ...VALID, website: 'spam' })
    expect(response.status).toBe(303)
    expect(response.headers.get('Location')).toBe('/contact-us?sent=1')
    expect(service.received).toHaveLength(0)
  })

  it.each(['website=spam&website=', 'website=&website=spam', 'website=&website=', 'website=%20'])(
    'treats a honeypot sent as %s as filled, whatever its count',
    async (honeypot) => {
      const service = referenceService()
      const response = await fetchPage('/en/contact-us', service.bindings, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/x-www-form-urlencoded',
          Origin: 'http://localhost',
          'Sec-Fetch-Site': 'same-origin',
          'CF-Connecting-IP': newClient(),
        },
        body: `${new URLSearchParams(VALID)}&${honeypot}`,
        redirect: 'manual',
      })
      expect(response.status).toBe(303)
      expect(service.received).toHaveLength(0)
    }
  )

  it('forwards a textarea’s CRLF line breaks as LF', async () => {
    const service = referenceService()
    const response = await postForm('/contact-us', service.bindings, {
      ...VALID,
      comments: 'Line one\r\nLine two',
    })
    expect(response.status).toBe(303)
    expect(service.received[0]?.body).toEqual({ ...VALID, comments: 'Line one\nLine two' })
  })

  it('leaves GET /contact-us to the page', async () => {
    backend = fakeBackend()
    const response = await fetchPage('/contact-us', backend.env(), {
      headers: { Origin: 'https://elsewhere.example' },
    })
    expect(response.status).toBe(200)
  })
})
