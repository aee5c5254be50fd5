/**
 * The storage module of the content service (content-service/src/queries.ts) against the real,
 * migrated and seeded D1 database.
 */
import { env } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import { PAGE_SLUGS, getPage, getPageMeta, insertMessage } from '../../content-service/src/queries'

describe('getPage', () => {
  it('returns the seeded payload of every page', async () => {
    for (const slug of PAGE_SLUGS) expect(await getPage(env.CONTENT_DB, slug)).toEqual(expect.any(Object))
    expect(await getPage(env.CONTENT_DB, 'navbar')).toMatchObject({ about: 'About', arm_about: 'Մեր մասին' })
  })
})

describe('getPageMeta', () => {
  it('returns the payload of a page key, or null for an unknown one', async () => {
    expect(await getPageMeta(env.CONTENT_DB, '/contact-us')).toMatchObject({ ru_title: expect.stringContaining('Контакты') })
    expect(await getPageMeta(env.CONTENT_DB, '/nowhere')).toBeNull()
  })
})

describe('insertMessage', () => {
  it('stores the message as given and returns its id', async () => {
    const id = await insertMessage(env.CONTENT_DB, { name: 'Davit', email: 'davit@example.am', comments: 'Բարև ձեզ' })
    const row = await env.CONTENT_DB.prepare('SELECT name, email, comments FROM messages WHERE id = ?').bind(id).first()
    expect(row).toEqual({ name: 'Davit', email: 'davit@example.am', comments: 'Բարև ձեզ' })
  })
})

describe('the seed', () => {
  it('replaces page content when applied again, and keeps messages', async () => {
    await env.CONTENT_DB.prepare("UPDATE pages SET payload = '{\"home\":\"Edited\"}' WHERE slug = 'navbar'").run()
    const id = await insertMessage(env.CONTENT_DB, { name: 'Narine', email: 'narine@example.am', comments: 'Kept' })
    await env.CONTENT_DB.batch(env.TEST_CONTENT_SEED.map((statement) => env.CONTENT_DB.prepare(statement)))
    expect(await getPage(env.CONTENT_DB, 'navbar')).toMatchObject({ home: 'Home' })
    expect(await env.CONTENT_DB.prepare('SELECT id FROM messages WHERE id = ?').bind(id).first()).toEqual({ id })
  })
})
