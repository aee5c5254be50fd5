/**
 * Turns content-service/seed/*.json into the SQL that (re)fills the `pages` and `page_meta` tables.
 * Shared by content-service/scripts/seed.mjs (wrangler d1 execute) and vitest.config.ts (the test databases), so
 * local dev and tests hold the same content. Messages are never touched.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const HERE = path.dirname(fileURLToPath(import.meta.url))
/** content-service/seed: one JSON file per page (file name = slug) plus page-meta.json. */
export const SEED_DIR = path.resolve(HERE, '../seed')
/** The site's public/ folder, where every image a payload names must exist. */
export const PUBLIC_DIR = path.resolve(HERE, '../../public')

/** Mirrors PAGE_SLUGS in content-service/src/queries.ts: a seed file with any other name is a typo. */
const PAGE_SLUGS = ['home', 'about', 'enterprises', 'contact-us', 'navbar']
const META_FILE = 'page-meta.json'

/** Reads the seed folder: `{ pages: { slug: payload }, pageMeta: { '/about': payload } }`. */
export function readSeed(dir = SEED_DIR) {
  const pages = {}
  let pageMeta = {}
  for (const file of readdirSync(dir)
    .filter((name) => name.endsWith('.json'))
    .sort()) {
    const data = JSON.parse(readFileSync(path.join(dir, file), 'utf8'))
    if (file === META_FILE) {
      pageMeta = data
      continue
    }
    const slug = file.slice(0, -'.json'.length)
    if (!PAGE_SLUGS.includes(slug))
      throw new Error(
        `seed/${file}: unknown page; expected one of ${PAGE_SLUGS.join(', ')}, ${META_FILE}`
      )
    pages[slug] = data
  }
  for (const page of Object.keys(pageMeta)) {
    if (!page.startsWith('/'))
      throw new Error(`seed/${META_FILE}: page key "${page}" must start with "/"`)
  }
  return { pages, pageMeta }
}

/** SQL statements that replace all page content with `seed`; safe to run again and again. */
export function buildSeedStatements({ pages, pageMeta }) {
  const statements = ['DELETE FROM pages', 'DELETE FROM page_meta']
  for (const [slug, payload] of Object.entries(pages)) {
    statements.push(
      `INSERT INTO pages (slug, payload) VALUES (${literal(slug)}, ${literal(JSON.stringify(payload))})`
    )
  }
  for (const [page, payload] of Object.entries(pageMeta)) {
    statements.push(
      `INSERT INTO page_meta (page, payload) VALUES (${literal(page)}, ${literal(JSON.stringify(payload))})`
    )
  }
  return statements
}

/** The statements as one .sql file for `wrangler d1 execute --file`. */
export function buildSeedSql(seed) {
  return `-- Generated from content-service/seed/*.json by content-service/scripts/seed-sql.mjs\n${buildSeedStatements(
    seed
  )
    .map((s) => `${s};`)
    .join('\n')}\n`
}

/** Site-relative image URLs ('/images/...') named anywhere in the seed that are missing from public/. */
export function findMissingImages(seed, publicDir = PUBLIC_DIR) {
  const missing = new Set()
  const visit = (value) => {
    if (typeof value === 'string') {
      if (
        /^\/[^/].*\.(jpe?g|png|svg|webp|ico)$/i.test(value) &&
        !existsSync(path.join(publicDir, value))
      )
        missing.add(value)
    } else if (value && typeof value === 'object') {
      for (const child of Object.values(value)) visit(child)
    }
  }
  visit(seed)
  return [...missing]
}

function literal(text) {
  return `'${String(text).replaceAll("'", "''")}'`
}
