/**
 * The storage module of the content service (content-service/src/queries.ts) against the real,
 * migrated and seeded D1 database.
 */
import { env } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import { PAGE_SLUGS, getPage, getPageMeta, insertMessage } from '../../content-service/src/queries'

describe('getPage', () => {
  it('returns the seeded payload of every page', async () => {
    for (const slug of PAGE_SLUGS)
      expect(await getPage(env.CONTENT_DB, slug)).toEqual(expect.any(Object))
    expect(await getPage(env.CONTENT_DB, 'navbar')).toMatchObject({
      about: 'About',
      arm_about: 'Մեր մասին',
    })
  })
})

describe('getPageMeta', () => {
  it('returns the payload of a page key, or null for an unknown one', async () => {
    expect(await getPageMeta(env.CONTENT_DB, '/contact-us')).toMatchObject({
      ru_title: expect.stringContaining('Контакты'),
    })
    expect(await getPageMeta(env.CONTENT_DB, '/nowhere')).toBeNull()
  })
})

describe('insertMessage', () => {
  it('stores the message as given and returns its id', async () => {
    const outcome = await insertMessage(env.CONTENT_DB, {
      name: 'Davit',
      email: 'davit@example.am',
      comments: 'Բարև ձեզ',
    })
    if (outcome.kind !== 'stored') throw new Error(`expected a stored message, got ${outcome.kind}`)
    const row = await env.CONTENT_DB.prepare(
      'SELECT name, email, comments, idempotency_key FROM messages WHERE id = ?'
    )
      .bind(outcome.id)
      .first()
    expect(row).toEqual({
      name: 'Davit',
      email: 'davit@example.am',
      comments: 'Բարև ձեզ',
      idempotency_key: null,
    })
  })

  it('stores a message once per idempotency key: the same again is a replay of that row, other fields a conflict', async () => {
    const message = { name: 'Lilit', email: 'lilit@example.am', comments: 'Once' }
    const key = `query-${crypto.randomUUID()}`
    const first = await insertMessage(env.CONTENT_DB, message, key)
    expect(first.kind).toBe('stored')
    expect(await insertMessage(env.CONTENT_DB, message, key)).toEqual({
      kind: 'replayed',
      id: (first as { id: number }).id,
    })
    expect(await insertMessage(env.CONTENT_DB, { ...message, comments: 'Twice' }, key)).toEqual({
      kind: 'conflict',
    })
    const rows = await env.CONTENT_DB.prepare(
      'SELECT comments FROM messages WHERE idempotency_key = ?'
    )
      .bind(key)
      .all()
    expect(rows.results).toEqual([{ comments: 'Once' }])
  })
})

describe('the seed', () => {
  it('replaces page content when applied again, and keeps messages', async () => {
    await env.CONTENT_DB.prepare(
      'UPDATE pages SET payload = \'{"home":"Edited"}\' WHERE slug = \'navbar\''
    ).run()
    const stored = await insertMessage(env.CONTENT_DB, {
      name: 'Narine',
      email: 'narine@example.am',
      comments: 'Kept',
    })
    const id = stored.kind === 'stored' ? stored.id : -1
    await env.CONTENT_DB.batch(
      env.TEST_CONTENT_SEED.map((statement) => env.CONTENT_DB.prepare(statement))
    )
    expect(await getPage(env.CONTENT_DB, 'navbar')).toMatchObject({ home: 'Home' })
    expect(
      await env.CONTENT_DB.prepare('SELECT id FROM messages WHERE id = ?').bind(id).first()
    ).toEqual({ id })
  })
})
