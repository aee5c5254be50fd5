/**
 * The site's pages at their address in every language, for worker and browser tests alike:
 * '/', '/about', '/enterprises', '/contact-us', '/en', '/en/about', ... '/ru/contact-us', and a
 * project's page in each language.
 */
import seed from '../../content-service/seed/enterprises.json' with { type: 'json' }
import { projectPaths } from '../../src/content/projects'
import { EnterprisesPayloadSchema } from '../../src/content/schemas'
import { LANGUAGES, localizePath } from '../../src/shared/languages'
import { PAGE_PATHS, PROJECTS_PATH } from '../../src/shared/site-paths'

/** Each page's path without language prefix. */
export const PAGE_KEYS = PAGE_PATHS

/** Every project page of the bundled content, without language prefix: '/enterprises/1-arabkir-residence', ... */
export const PROJECT_KEYS: readonly string[] = projectPaths(EnterprisesPayloadSchema.parse(seed))

/**
 * The project whose page stands for all of them in the page lists: every project page is the same
 * template, and this one has the longest title (whole words, the most lines in a card).
 */
export const SAMPLE_PROJECT_KEY = `${PROJECTS_PATH}/3-northern-avenue-business-centre`

export const PAGE_ADDRESSES: readonly string[] = LANGUAGES.flatMap((lng) =>
  [...PAGE_KEYS, SAMPLE_PROJECT_KEY].map((key) => localizePath(key, lng))
)

/**
 * One page of each kind, each kind in another language: home (the carousel), about, contact (the
 * form), enterprises, a project page. For browser checks whose faults follow a page's kind (its islands, its
 * images), not its language: the specs that take every address (visitor-pages, visitor-words,
 * routes) already show every page in every language.
 */
export const ONE_PAGE_OF_EACH_KIND: readonly string[] = [
  '/',
  '/en/about',
  '/ru/contact-us',
  '/en/enterprises',
  SAMPLE_PROJECT_KEY,
]
