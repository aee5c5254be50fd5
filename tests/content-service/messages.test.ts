/**
 * POST messages (content-service/src/routes/messages.ts): the rules of spec section 5, checked on
 * the server, and storage in D1.
 */
import { env } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import { call } from '../support/content-service'

const valid = {
  name: 'Aram Petrosyan',
  email: 'aram@example.am',
  comments: 'We would like to visit the Davtashen townhouses.',
}

function post(body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return call('messages', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  })
}

async function countMessages(): Promise<number> {
  const row = await env.CONTENT_DB.prepare('SELECT COUNT(*) AS n FROM messages').first<{
    n: number
  }>()
  return row?.n ?? 0
}

describe('POST messages with a valid message', () => {
  it('stores it trimmed and answers 200 with its id', async () => {
    const response = await post({
      name: '  Narine  ',
      email: ' narine@example.am ',
      comments: '  Hello from Kentron!  ',
    })
    expect(response.status).toBe(200)
    expect(response.headers.get('Content-Type')).toMatch(/^application\/json/)
    const { payload } = (await response.json()) as { payload: { id: number } }
    expect(payload.id).toEqual(expect.any(Number))
    const row = await env.CONTENT_DB.prepare(
      'SELECT name, email, comments, created_at FROM messages WHERE id = ?'
    )
      .bind(payload.id)
      .first()
    expect(row).toMatchObject({
      name: 'Narine',
      email: 'narine@example.am',
      comments: 'Hello from Kentron!',
    })
    expect(row?.created_at).toMatch(/^\d{4}-\d\d-\d\dT/)
  })

  it.each([
    ['Armenian', 'Գայանե Սարգսյան'],
    ['Russian', 'Анна-Мария'],
    ['an apostrophe', "D'Artagnan"],
    ['a typographic apostrophe', 'O’Brien'],
    ['exactly 2 letters', 'Li'],
    ['exactly 20 letters', 'Abcdefghij Klmnopqrs'],
  ])('accepts a name in %s', async (_, name) => {
    const response = await post({ ...valid, name })
    expect(response.status).toBe(200)
  })

  it('accepts a message of exactly 500 characters', async () => {
    expect((await post({ ...valid, comments: 'ա'.repeat(500) })).status).toBe(200)
  })

  it('gives every stored message its own id', async () => {
    const first = (await (await post(valid)).json()) as { payload: { id: number } }
    const second = (await (await post(valid)).json()) as { payload: { id: number } }
    expect(second.payload.id).toBeGreaterThan(first.payload.id)
  })
})

describe('POST messages with invalid input', () => {
  it.each([
    ['an empty name', { ...valid, name: '' }, 'Please enter your name'],
    ['a name of spaces', { ...valid, name: '    ' }, 'Please enter your name'],
    ['no name field', { email: valid.email, comments: valid.comments }, 'Please enter your name'],
    ['a name that is not text', { ...valid, name: 42 }, 'Please enter your name'],
    ['a one-letter name', { ...valid, name: ' A ' }, 'Name must be at least 2 characters'],
    [
      'a 21-letter name',
      { ...valid, name: 'A'.repeat(21) },
      'Name must be no more than 20 characters',
    ],
    ['digits in the name', { ...valid, name: 'R2D2' }, 'Please enter a valid name (letters only)'],
    [
      'markup in the name',
      { ...valid, name: '<b>Aram</b>' },
      'Please enter a valid name (letters only)',
    ],
    ['an empty email', { ...valid, email: '' }, 'Please enter your email'],
    ['an email without @', { ...valid, email: 'aram.example.am' }, 'Invalid email format'],
    [
      'an email without a domain suffix',
      { ...valid, email: 'aram@example' },
      'Invalid email format',
    ],
    [
      'an email with spaces inside',
      { ...valid, email: 'ar am@example.am' },
      'Invalid email format',
    ],
    ['an empty message', { ...valid, comments: '' }, 'Please enter your message'],
    ['a message of spaces', { ...valid, comments: ' \n\t ' }, 'Please enter your message'],
    [
      'a one-character message',
      { ...valid, comments: 'x' },
      'Message must be at least 2 characters',
    ],
    [
      'a 501-character message',
      { ...valid, comments: 'x'.repeat(501) },
      'Message must be no more than 500 characters',
    ],
    ['all fields empty', { name: '', email: ' ', comments: '' }, 'Please fill out all fields'],
    ['an empty object', {}, 'Please fill out all fields'],
  ])('answers 400 with a message for %s, storing nothing', async (_, body, message) => {
    const before = await countMessages()
    const response = await post(body)
    expect(response.status).toBe(400)
    expect(response.headers.get('Content-Type')).toMatch(/^application\/json/)
    expect(await response.json()).toEqual({ message })
    expect(await countMessages()).toBe(before)
  })

  it.each([
    ['malformed JSON', '{"name": "Aram",'],
    ['an empty body', ''],
    ['a JSON array', '[]'],
    ['a JSON string', '"hello"'],
    ['JSON null', 'null'],
  ])('answers 400 with a message for %s', async (_, body) => {
    const response = await post(body)
    expect(response.status).toBe(400)
    const answer = (await response.json()) as { message: string }
    expect(answer.message).toMatch(/JSON/)
  })
})

describe('POST messages with an Idempotency-Key', () => {
  const keyed = (key: string) => ({ 'Idempotency-Key': key })

  it('stores a message once per key: the same message again gets the stored id, marked as replayed', async () => {
    const key = `retry-${crypto.randomUUID()}`
    const before = await countMessages()
    const first = await post(valid, keyed(key))
    expect(first.status).toBe(200)
    expect(first.headers.get('Idempotent-Replayed')).toBeNull()
    const { payload } = (await first.json()) as { payload: { id: number } }
    const again = await post({ ...valid, name: `  ${valid.name} ` }, keyed(key))
    expect(again.status).toBe(200)
    expect(again.headers.get('Idempotent-Replayed')).toBe('true')
    expect(await again.json()).toEqual({ payload: { id: payload.id } })
    expect(await countMessages()).toBe(before + 1)
    const rows = await env.CONTENT_DB.prepare('SELECT id FROM messages WHERE idempotency_key = ?')
      .bind(key)
      .all()
    expect(rows.results).toEqual([{ id: payload.id }])
  })

  it('stores messages with different keys, and without a key, as new messages', async () => {
    const before = await countMessages()
    await post(valid, keyed(`a-${crypto.randomUUID()}`))
    await post(valid, keyed(`b-${crypto.randomUUID()}`))
    await post(valid)
    await post(valid)
    expect(await countMessages()).toBe(before + 4)
  })

  it('refuses a key already used for another message with 422, storing nothing', async () => {
    const key = `conflict-${crypto.randomUUID()}`
    await post(valid, keyed(key))
    const before = await countMessages()
    const response = await post({ ...valid, comments: 'A different question.' }, keyed(key))
    expect(response.status).toBe(422)
    expect(await response.json()).toEqual({
      message: 'This Idempotency-Key was already used for a different message',
    })
    expect(await countMessages()).toBe(before)
  })

  it.each([
    ['a key over 255 characters', 'k'.repeat(256)],
    ['a key with a space inside', 'two words'],
    ['a key with a control character', 'key\u007f1'],
  ])('answers 400 for %s, storing nothing', async (_, key) => {
    const before = await countMessages()
    const response = await post(valid, keyed(key))
    expect(response.status).toBe(400)
    expect(await response.json()).toEqual({
      message: 'Idempotency-Key must be 1 to 255 visible ASCII characters',
    })
    expect(await countMessages()).toBe(before)
  })
})
