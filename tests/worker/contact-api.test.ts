/**
 * POST /api/contact, the form island's route: against the reference content service for the happy
 * path, and against a misbehaving backend at `fetch` for every failure the spec names (section 8).
 */
import { env } from 'cloudflare:workers'
import { afterEach, describe, expect, it } from 'vitest'
import { fakeBackend, json, text } from '../support/worker/fake-backend'
import { postJson, recordingQueue, referenceService, VALID } from '../support/worker/contact'

let backend: ReturnType<typeof fakeBackend> | undefined
afterEach(() => {
  backend?.restore()
  backend = undefined
})

describe('POST /api/contact against the reference service', () => {
  it('forwards exactly the three trimmed fields and answers 200 {ok: true}', async () => {
    const service = referenceService()
    const response = await postJson(service.bindings, {
      name: '  Անի Սարգսյան ',
      email: ' ani@example.am ',
      comments: '\n Բարև ձեզ \n',
      website: '',
    })
    expect(response.status).toBe(200)
    expect(response.headers.get('Cache-Control')).toBe('no-store')
    expect(await response.json()).toEqual({ ok: true })
    const [call, ...more] = service.messages()
    expect(more).toHaveLength(0)
    expect(call?.method).toBe('POST')
    expect(call?.path).toBe('/api/erebuni/messages')
    expect(call?.body).toEqual({
      name: 'Անի Սարգսյան',
      email: 'ani@example.am',
      comments: 'Բարև ձեզ',
    })
    expect(call?.headers.get('Authorization')).toBe('')
    expect(call?.headers.get('Content-Type')).toBe('application/json')
    expect(call?.status).toBe(200)
    const stored = await env.TEST_CONTENT_DB.prepare(
      'SELECT name, email, comments FROM messages WHERE email = ?'
    )
      .bind('ani@example.am')
      .all()
    expect(stored.results).toEqual([
      { name: 'Անի Սարգսյան', email: 'ani@example.am', comments: 'Բարև ձեզ' },
    ])
  })

  it('sends the API token as the Authorization header', async () => {
    const service = referenceService()
    await postJson({ ...service.bindings, API_TOKEN: 'site-token' }, VALID)
    expect(service.messages()[0]?.headers.get('Authorization')).toBe('site-token')
  })

  it.each([
    ['Latin', 'Mary-Jane O’Neil'],
    ['Cyrillic', 'Анна-Мария'],
    ['Armenian', 'Արամ Խաչատրյան'],
  ])('accepts a %s name', async (_, name) => {
    const service = referenceService()
    const response = await postJson(service.bindings, { ...VALID, name })
    expect(response.status).toBe(200)
    expect(service.messages()[0]?.body).toMatchObject({ name })
  })

  it('answers 422 with one dictionary key per field and never calls the backend', async () => {
    const service = referenceService()
    const response = await postJson(service.bindings, {
      name: 'A',
      email: '',
      comments: 'x'.repeat(501),
    })
    expect(response.status).toBe(422)
    expect(response.headers.get('Cache-Control')).toBe('no-store')
    expect(await response.json()).toEqual({
      ok: false,
      errors: {
        name: 'contact.nameTooShort',
        email: 'contact.requiredEmail',
        comments: 'contact.messageTooLong',
        form: 'contact.fillAllFields',
      },
    })
    expect(service.received).toHaveLength(0)
  })

  it('answers a filled honeypot like a success and never forwards it', async () => {
    const service = referenceService()
    const response = await postJson(service.bindings, { ...VALID, website: 'https://spam.example' })
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual({ ok: true })
    expect(service.received).toHaveLength(0)
  })

  it.each([1, 0, true, false, null, [], [''], {}, { url: 'x' }, ' '])(
    'treats a honeypot of %j as filled, whatever its type',
    async (website) => {
      const service = referenceService()
      const response = await postJson(service.bindings, { ...VALID, website })
      expect(response.status).toBe(200)
      expect(await response.json()).toEqual({ ok: true })
      expect(service.received).toHaveLength(0)
    }
  )

  it('forwards valid text only: lone surrogates replaced, CRLF as LF', async () => {
    const service = referenceService()
    const response = await postJson(service.bindings, {
      ...VALID,
      comments: 'Price\r\nplease \udfff',
    })
    expect(response.status).toBe(200)
    expect(service.received[0]?.body).toEqual({ ...VALID, comments: 'Price\nplease \ufffd' })
  })

  it.each([
    [
      'a control character in the comments',
      { comments: 'Hello\u0007 there' },
      'comments',
      'contact.invalidMessage',
    ],
    ['a control character in the name', { name: 'Anna\u0000' }, 'name', 'contact.invalidName'],
    [
      'a comment of only bidi and zero-width characters',
      { comments: '\u202e\u200b\u2066\u200d' },
      'comments',
      'contact.requiredMessage',
    ],
    [
      'one visible character among invisible ones',
      { comments: 'a\u200b\u202e' },
      'comments',
      'contact.messageTooShort',
    ],
    [
      'a 65-character local part',
      { email: `${'a'.repeat(65)}@example.com` },
      'email',
      'contact.invalidEmail',
    ],
  ])('refuses %s (422) and forwards nothing', async (_, fields, field, message) => {
    const service = referenceService()
    const response = await postJson(service.bindings, { ...VALID, ...fields })
    expect(response.status).toBe(422)
    expect(((await response.json()) as { errors: Record<string, string> }).errors[field]).toBe(
      message
    )
    expect(service.received).toHaveLength(0)
  })
})

describe('POST /api/contact against a misbehaving backend', () => {
  it('forwards to ${API_HOST}/api/${PRODUCT}/messages with the Authorization header', async () => {
    backend = fakeBackend({ messages: json({ payload: { id: 1 } }) })
    const response = await postJson(backend.env({ API_TOKEN: 'secret', PRODUCT: 'acme' }), {
      ...VALID,
      name: ' Anna Smith ',
      extra: 'dropped',
    })
    expect(response.status).toBe(200)
    const [call] = backend.callsTo('messages')
    expect(call?.url.href).toBe(`${backend.origin}/api/acme/messages`)
    expect(call?.method).toBe('POST')
    expect(call?.headers.get('Authorization')).toBe('secret')
    expect(JSON.parse(call!.body)).toEqual(VALID)
  })

  it('passes on the backend’s message when it refuses the message (4xx) with one', async () => {
    backend = fakeBackend({ messages: json({ message: 'Mailbox is full' }, 422) })
    const response = await postJson(backend.env(), VALID)
    expect(response.status).toBe(502)
    expect(response.headers.get('Cache-Control')).toBe('no-store')
    expect(await response.json()).toEqual({ ok: false, message: 'Mailbox is full' })
  })

  it.each([
    ['400 without a message', json({ error: 'x' }, 400)],
    ['422 with a blank message', json({ message: '  ' }, 422)],
    ['400 with malformed JSON', text('{"message": ', 400)],
    ['201 (anything but 200 is a failure)', json({ payload: { id: 1 } }, 201)],
    ['404', json({}, 404)],
  ])('answers 502 without a message when the backend answers %s', async (_, answer) => {
    backend = fakeBackend({ messages: answer })
    const response = await postJson(backend.env(), VALID)
    expect(response.status).toBe(502)
    expect(await response.json()).toEqual({ ok: false })
    expect(backend.callsTo('messages')).toHaveLength(1)
  })

  it('counts 200 as success even when its body is malformed (spec section 7: success is status 200)', async () => {
    backend = fakeBackend({ messages: text('not json', 200) })
    const response = await postJson(backend.env(), VALID)
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual({ ok: true })
  })

  // A backend that is down, slow or unreachable gets the message later through the outbox
  // (contact-outbox.test.ts); the visitor sees these errors only when the queue fails as well.
  it('answers 504 when the backend is slower than API_TIMEOUT_MS and the queue cannot take the message', async () => {
    // The backend never answers: an answer at all is the time-out's doing.
    backend = fakeBackend({ messages: 'hang' })
    const response = await postJson(
      backend.env({ API_TIMEOUT_MS: '150', CONTACT_QUEUE: recordingQueue({ fail: true }).queue }),
      VALID
    )
    expect(response.status).toBe(504)
    expect(await response.json()).toEqual({ ok: false })
  })

  it('answers 502 when the backend cannot be reached and the queue cannot take the message', async () => {
    backend = fakeBackend({ messages: () => Promise.reject(new TypeError('connection refused')) })
    const response = await postJson(
      backend.env({ CONTACT_QUEUE: recordingQueue({ fail: true }).queue }),
      VALID
    )
    expect(response.status).toBe(502)
    expect(await response.json()).toEqual({ ok: false })
  })
})
