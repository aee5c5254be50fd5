import { afterEach, describe, expect, it } from 'vitest'
import { createContentClient } from '../../src/freshness/content-client'
import { fakeBackend, json, text } from '../support/worker/fake-backend'

let backend: ReturnType<typeof fakeBackend> | undefined
afterEach(() => backend?.restore())

function clientFor(fake: ReturnType<typeof fakeBackend>, overrides = {}) {
  const background: Promise<unknown>[] = []
  const client = createContentClient({
    env: fake.env(overrides),
    timeoutMs: 100,
    waitUntil: (promise) => background.push(promise),
  })
  return { client, settle: () => Promise.allSettled(background) }
}

describe('content client', () => {
  it('calls ${API_HOST}/api/${PRODUCT}/... with the Authorization header', async () => {
    backend = fakeBackend()
    const { client } = clientFor(backend, { API_TOKEN: 'secret-token', PRODUCT: 'acme' })
    await client.navbar()
    const [call] = backend.calls
    expect(call?.url.href).toBe(`${backend.origin}/api/acme/navbar-data`)
    expect(call?.headers.get('Authorization')).toBe('secret-token')
  })

  it('asks page-meta-data for the page key and the fixed path value', async () => {
    backend = fakeBackend()
    const { client } = clientFor(backend, { META_PATH: 'site' })
    await client.pageMeta('/about')
    const [call] = backend.callsTo('page-meta-data')
    expect(call?.url.searchParams.get('page')).toBe('/about')
    expect(call?.url.searchParams.get('path')).toBe('site')
  })

  it('turns missing fields into empty strings, lists and objects', async () => {
    backend = fakeBackend({
      'get-about-page': json({ payload: { title: 'About', missions: 'oops', firstBanner: null } }),
    })
    const { client } = clientFor(backend)
    const about = await client.aboutPage()
    expect(about.title).toBe('About')
    expect(about.description).toBe('')
    expect(about.missions).toEqual([])
    expect(about.firstBanner.titleBanner).toBe('')
    expect(about.thirdBanner).toEqual([])
  })

  it('drops list entries that are not objects and keeps the rest', async () => {
    backend = fakeBackend({
      'get-enterprises-page': json({
        payload: { enterprises: [null, 'x', { title: 'Tower', id: 7 }] },
      }),
    })
    const { client } = clientFor(backend)
    const page = await client.enterprisesPage()
    expect(page.enterprises).toHaveLength(1)
    expect(page.enterprises[0]).toMatchObject({ title: 'Tower', id: 7, img: '' })
  })

  it.each([
    ['a payload that is not an object', json({ payload: ['a'] })],
    ['an answer without payload', json({ data: {} })],
    ['an answer that is not JSON', text('<html>oops</html>')],
  ])('fails on %s', async (_, answer) => {
    backend = fakeBackend({ 'navbar-data': answer })
    const { client } = clientFor(backend)
    await expect(client.navbar()).rejects.toMatchObject({
      name: 'ContentError',
      failure: 'malformed',
    })
  })

  it('fails with the backend status and its message on an error answer', async () => {
    backend = fakeBackend({ 'navbar-data': json({ message: 'maintenance' }, 500) })
    const { client } = clientFor(backend)
    await expect(client.navbar()).rejects.toMatchObject({
      failure: 'status',
      status: 500,
      backendMessage: 'maintenance',
    })
  })

  it('times out a backend that does not answer', async () => {
    backend = fakeBackend({ 'navbar-data': 'hang' })
    const { client } = clientFor(backend)
    await expect(client.navbar()).rejects.toMatchObject({ failure: 'timeout' })
  })

  it('serves repeated loads from the cache with one backend call', async () => {
    backend = fakeBackend()
    const first = clientFor(backend)
    await first.client.homePage()
    await first.settle()
    const second = clientFor(backend)
    await second.client.homePage()
    expect(backend.callsTo('get-home-page')).toHaveLength(1)
  })

  it('sends a message and reads success only from status 200', async () => {
    backend = fakeBackend({ messages: json({ payload: { id: 1 } }, 201) })
    const { client } = clientFor(backend)
    expect(
      await client.sendMessage({ name: 'Ani', email: 'ani@example.am', comments: 'Hello' })
    ).toEqual({
      ok: false,
      status: 201,
      message: undefined,
      temporary: false,
    })
    expect(JSON.parse(backend.callsTo('messages')[0]!.body)).toEqual({
      name: 'Ani',
      email: 'ani@example.am',
      comments: 'Hello',
    })
  })
})
