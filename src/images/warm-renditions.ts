/**
 * Renditions made before visitors ask for them (docs/decisions/0029-renditions-warmed-after-a-change.md).
 * After the publish hook stored changed payloads, the pages rendered from them are rendered once
 * more, here, and every image address their HTML names (`<img src srcset>`, the banner's
 * `<link rel=preload imagesrcset>`) is made in the format real browsers get (AVIF: Chromium,
 * Firefox and Safari 16.4+ all list `image/avif` when they ask for an image), into the cache the
 * image route reads: the first visitor of a changed page gets hits, not transforms and not a 503.
 *
 * The changed payloads' own pages come first (the contact page for `contact-us`, which every
 * footer shows too): the page an editor changed is the one whose photos are new, and the one they
 * open next to see their change; the other pages' renditions follow as the budget allows.
 *
 * It runs after the hook's answer (waitUntil), on the site's own origin and zone, where the route's
 * Cache API keys live. Bounded per change: at most MAX_PAGES_PER_CHANGE pages rendered, at most
 * MAX_RENDITIONS_PER_CHANGE renditions made, within IMAGE_WARM_BUDGET_MS, and through background
 * transform slots, which visitors' misses always get first (./transform.ts). What is left over is
 * made by the first visitor who asks, as before.
 */
import type { PayloadsChangedListener } from '../freshness'
import { pageOfTag } from '../content/payload-catalogue'
import type { Bindings } from '../env'
import { reportBackgroundError } from '../observability'
import { decodeCharacterReferences, tokenizeHtml } from '../content/html-tokenizer'
import { LANGUAGES, localizePath, splitLanguagePrefix } from '../shared/languages'
import { IMAGE_ROUTE } from '../shared/site-paths'
import { readImageAddress } from './image-url'
import { warmRendition, type RenderContext, type WarmOutcome } from './image-miss'
import { allowedOrigins, checkSource } from './source-policy'
import { MAX_BACKGROUND_TRANSFORMS } from './transform'

/** What browsers send for an image and the route answers with AVIF (./image-format.ts). */
export const WARM_ACCEPT = 'image/avif,image/webp,*/*'
/** Pages rendered per change: every page of every language, with room for some 40 project pages. */
export const MAX_PAGES_PER_CHANGE = 150
/** Renditions made per change: the site's changed pages name far fewer; a bound, not a target. */
export const MAX_RENDITIONS_PER_CHANGE = 400
/** A warm-up's time when IMAGE_WARM_BUDGET_MS is not set: within waitUntil's 30 s after the answer. */
export const DEFAULT_WARM_BUDGET_MS = 25_000

/** Renders a site page (a path such as '/en/about') as a visitor's GET would. */
export type PageRenderer = (path: string) => Promise<Response>

export type WarmReport = {
  /** The pages rendered from the changed payloads. */
  pages: string[]
  /** Distinct image addresses those pages name (social cards aside: link previews, not visitors). */
  named: number
  /** What happened to each, by outcome; `over-bound` were left for visitors by the bound or the budget. */
  outcomes: Record<WarmOutcome | 'over-bound', number>
  ms: number
}

/** IMAGE_WARM_BUDGET_MS, else DEFAULT_WARM_BUDGET_MS. */
export function warmBudgetMs(env: Pick<Bindings, 'IMAGE_WARM_BUDGET_MS'>): number {
  const ms = Number(env.IMAGE_WARM_BUDGET_MS)
  return Number.isFinite(ms) && ms > 0 ? ms : DEFAULT_WARM_BUDGET_MS
}

/**
 * Renders the site's pages (every navbar page in every language, and the pages they link to) and
 * keeps those whose Cache-Tag names a changed payload, up to MAX_PAGES_PER_CHANGE renders and until
 * `deadline`.
 */
export async function pagesShowing(
  changedTags: readonly string[],
  pagePaths: readonly string[],
  isPage: (pageKey: string) => boolean,
  render: PageRenderer,
  deadline = Infinity
): Promise<{ path: string; html: string }[]> {
  const changed = new Set(changedTags)
  const queue = LANGUAGES.flatMap((lng) => pagePaths.map((path) => localizePath(path, lng)))
  const seen = new Set(queue)
  const found: { path: string; html: string }[] = []
  for (
    let rendered = 0;
    rendered < queue.length && rendered < MAX_PAGES_PER_CHANGE && Date.now() < deadline;
    rendered++
  ) {
    const path = queue[rendered]!
    const response = await render(path)
    if (response.status !== 200) {
      await response.body?.cancel()
      continue
    }
    const html = await response.text()
    const tags = (response.headers.get('Cache-Tag') ?? '').split(',')
    if (tags.some((tag) => changed.has(tag))) found.push({ path, html })
    for (const link of pageLinks(html)) {
      if (seen.has(link) || !isPage(splitLanguagePrefix(link).path)) continue
      seen.add(link)
      queue.push(link)
    }
  }
  return found
}

/** The site-relative paths a page links to, without query or fragment. */
function pageLinks(html: string): string[] {
  const links: string[] = []
  for (const token of tokenizeHtml(html)) {
    if (token.kind !== 'start' || token.name !== 'a') continue
    const href = token.attributes.find(({ name }) => name === 'href')?.value
    if (!href) continue
    const path = decodeCharacterReferences(href).split(/[?#]/)[0]!
    if (path.startsWith('/') && !path.startsWith('//')) links.push(path)
  }
  return links
}

/**
 * `pages` with those of the changed payloads' own pages (payload-catalogue's pageOfTag) first, in
 * every language, each group in its order.
 */
function ownPagesFirst<P extends { path: string }>(
  pages: readonly P[],
  changedTags: readonly string[]
): P[] {
  const own = new Set(changedTags.map(pageOfTag))
  const isOwn = (page: P) => own.has(splitLanguagePrefix(page.path).path)
  return [...pages.filter(isOwn), ...pages.filter((page) => !isOwn(page))]
}

/**
 * The image route's addresses `html` names, in document order, once each: `<img>` and `<source>`
 * src and srcset, and the preload's href and imagesrcset.
 */
export function imageAddresses(html: string): string[] {
  const addresses = new Set<string>()
  const add = (value: string) => {
    const address = decodeCharacterReferences(value).trim()
    if (address.startsWith(`${IMAGE_ROUTE}?`)) addresses.add(address)
  }
  for (const token of tokenizeHtml(html)) {
    if (token.kind !== 'start') continue
    if (token.name !== 'img' && token.name !== 'source' && token.name !== 'link') continue
    for (const { name, value } of token.attributes) {
      if (name === 'src' || name === 'href') add(value)
      else if (name === 'srcset' || name === 'imagesrcset')
        for (const candidate of value.split(',')) add(candidate.trim().split(/\s+/)[0] ?? '')
    }
  }
  return [...addresses]
}

/**
 * Makes the renditions `pages` name that the cache does not hold yet, MAX_BACKGROUND_TRANSFORMS at
 * a time, until the bound or `deadline`. Never throws: a rendition that fails is the route's usual
 * failure (logged, reported), and the next is made.
 */
export async function warmRenditions(
  pages: readonly { html: string }[],
  context: RenderContext,
  deadline: number,
  limit = MAX_RENDITIONS_PER_CHANGE
): Promise<Pick<WarmReport, 'named' | 'outcomes'>> {
  const outcomes: WarmReport['outcomes'] = {
    cached: 0,
    taken: 0,
    made: 0,
    'no-slot': 0,
    failed: 0,
    'over-bound': 0,
  }
  const addresses = [...new Set(pages.flatMap(({ html }) => imageAddresses(html)))]
  const origins = allowedOrigins(context.env)
  const work = addresses.flatMap((address) => {
    const read = readImageAddress(new URL(address, context.origin))
    if (!read.ok || read.card) return []
    const checked = checkSource(read.src, origins)
    return checked.ok ? [{ read, source: checked.source }] : []
  })
  // Renditions made or being made (a failure counts: it may have cost a download and a call).
  let spent = 0
  const worker = async () => {
    for (let next = work.shift(); next; next = work.shift()) {
      if (spent >= limit || Date.now() >= deadline) {
        outcomes['over-bound']++
        continue
      }
      spent++
      const { read, source } = next
      const outcome = await warmRendition(
        source,
        {
          src: read.src,
          width: read.width,
          accept: WARM_ACCEPT,
          ...(read.fallback && { fallback: read.fallback }),
          client: 'warm-up',
        },
        context,
        deadline
      ).catch((error: unknown) => {
        console.warn(`renditions: ${read.src.slice(0, 200)}: ${String(error)}`)
        return 'failed' as const
      })
      outcomes[outcome]++
      if (outcome !== 'made' && outcome !== 'failed') spent--
    }
  }
  await Promise.all(Array.from({ length: MAX_BACKGROUND_TRANSFORMS }, worker))
  return { named: addresses.length, outcomes }
}

/**
 * The whole warm-up after a change: the changed pages, then their renditions; one log line says
 * what it did (`renditions: warmed after [tags]: ...`), which is how an operator, and the browser
 * test, know it ended.
 */
export async function warmChangedRenditions(options: {
  changedTags: readonly string[]
  pagePaths: readonly string[]
  isPage: (pageKey: string) => boolean
  render: PageRenderer
  context: RenderContext
  /** Renditions made at most (default MAX_RENDITIONS_PER_CHANGE). */
  limit?: number
}): Promise<WarmReport> {
  const started = Date.now()
  const deadline = started + warmBudgetMs(options.context.env)
  const pages = ownPagesFirst(
    await pagesShowing(
      options.changedTags,
      options.pagePaths,
      options.isPage,
      options.render,
      deadline
    ),
    options.changedTags
  )
  const { named, outcomes } = await warmRenditions(pages, options.context, deadline, options.limit)
  const report: WarmReport = {
    pages: pages.map(({ path }) => path),
    named,
    outcomes,
    ms: Date.now() - started,
  }
  console.log(
    `renditions: warmed after [${options.changedTags.join(',')}]: ${report.pages.length} pages, ${named} addresses, ` +
      `made ${outcomes.made}, cached ${outcomes.cached}, taken ${outcomes.taken}, no slot ${outcomes['no-slot']}, ` +
      `failed ${outcomes.failed}, over the bound ${outcomes['over-bound']}, in ${report.ms} ms`
  )
  return report
}

/** What the warm-up needs of the site: its app's fetch, its pages, and which paths are pages. */
export type Site = {
  fetch: (request: Request, env: Bindings, ctx: ExecutionContext) => Response | Promise<Response>
  pagePaths: readonly string[]
  isPage: (pageKey: string) => boolean
}

/**
 * The change hook's listener (registered in src/index.ts): after the publish hook's answer, the
 * changed pages' renditions. Only where a request on the site made the change: its origin is part
 * of the route's cache keys, and a cron invocation's Cache API is not the zone's (the scheduled
 * refresh warms placeholders, which live in KV, and leaves renditions to visitors).
 */
export function renditionsWarmer(site: Site): PayloadsChangedListener {
  return (env, changed, { origin, waitUntil }) => {
    if (!origin || changed.length === 0) return
    const ctx = {
      waitUntil,
      passThroughOnException() {},
      props: {},
    } as unknown as ExecutionContext
    const context: RenderContext = {
      env,
      origin,
      waitUntil,
      report: (error, stage) =>
        reportBackgroundError(env, ctx, error, { backend_key: 'images', image_stage: stage }),
    }
    // Rendered as a visitor's GET, but past the page cache: the warm-up reads what pages name,
    // and leaves which pages are cached to visitors (PAGE_CACHE_TTL '0' turns it off).
    const renderEnv: Bindings = { ...env, PAGE_CACHE_TTL: '0' }
    const render: PageRenderer = async (path) =>
      site.fetch(
        new Request(new URL(path, origin), { headers: { Accept: 'text/html' } }),
        renderEnv,
        ctx
      )
    waitUntil(
      warmChangedRenditions({
        changedTags: changed.map(({ tag }) => tag),
        pagePaths: site.pagePaths,
        isPage: site.isPage,
        render,
        context,
      }).catch((error: unknown) =>
        console.warn(`renditions: warm-up ended early: ${String(error)}`)
      )
    )
  }
}
