/**
 * Project pages: which items of the enterprises payload have a page of their own, and at
 * which address (docs/decisions/0018-project-pages.md).
 *
 * A project's address is `/enterprises/<slug>` in every language, the slug being its id and, after a
 * '-', a readable part made of its (English) title: `/enterprises/1-arabkir-residence`. The id is
 * what identifies the project, so the page stays where it is when an editor fixes a typo in a title;
 * any other readable part (an old title, none at all) is redirected to the current slug.
 *
 * An item can have a page only with an id usable in an address, seen once in the list, and a title
 * in every language. One that cannot keeps its card, without the link; the problems are found here,
 * once per backend load, and reported like dropped addresses (src/freshness/content-client.ts). An item
 * without an image still has a page: the banner's bundled fallback applies.
 */
import type { EnterpriseItem, EnterprisesPayload } from './schemas'
import { pickLocalized } from './localize'
import { LANGUAGES } from '../shared/languages'
import { PROJECTS_PATH } from '../shared/site-paths'

/** The page path of the enterprises list; project pages sit below it. */

/**
 * An id the address can carry as it is, and a reference to a project from outside its page (the
 * contact page's `?project=`, the form's hidden field) can name: letters, digits, '_', '.' and '~',
 * at most 64 characters. Not '-', which ends the id inside the slug, and nothing that would need
 * percent-encoding. Only its shape is checked here; whether a project has that id is the
 * enterprises payload's to say (`projectsOf`).
 */
export const PROJECT_ID_PATTERN = /^(?=.{1,64}$)[A-Za-z0-9_.~]*[A-Za-z0-9][A-Za-z0-9_.~]*$/
/** Readable parts are cut to this many characters (at a word boundary). */
const MAX_READABLE = 60

export type Project = {
  /** The id as the address carries it. */
  id: string
  /** The current slug: id, then '-' and the readable part when the title gives one. */
  slug: string
  item: EnterpriseItem
}

/** Why an item has no page, or has one with a fallback, by its index in `enterprises`. */
export type ProjectProblem = {
  index: number
  problem: 'no-id' | 'unusable-id' | 'duplicate-id' | 'no-title' | 'no-image'
}

export type Projects = {
  /** The items that have a page, in the payload's order. */
  list: readonly Project[]
  /** By the item object: the card's link. */
  byItem: ReadonlyMap<EnterpriseItem, Project>
  /** By id: a home card (an item of the home payload) finds its project by id. */
  byId: ReadonlyMap<string, Project>
  problems: readonly ProjectProblem[]
}

/** The id of an item as text ('' for none). */
function idOf(item: EnterpriseItem): string {
  return typeof item.id === 'number'
    ? Number.isFinite(item.id)
      ? String(item.id)
      : ''
    : item.id.trim()
}

/**
 * The project a home card shows: the home payload repeats the enterprises' items (spec section 3),
 * so its cards find their project by id. Null when the id has no page.
 */
export function projectWithIdOf(projects: Projects, item: EnterpriseItem): Project | null {
  return projects.byId.get(idOf(item)) ?? null
}

/**
 * The readable part of a title: Latin letters and digits, lower case, words joined by '-', accents
 * dropped; '' when the title has none (a title only in Armenian script gives an id-only slug).
 */
export function readablePart(title: string): string {
  const words = title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean)
  let part = ''
  for (const word of words) {
    const next = part ? `${part}-${word}` : word
    if (next.length > MAX_READABLE) break
    part = next
  }
  return part || (words[0] ?? '').slice(0, MAX_READABLE)
}

/** The slug of a project with this id and item: `1-arabkir-residence`, or `1`. */
function slugOf(id: string, item: EnterpriseItem): string {
  const readable = readablePart(item.title || item.en_title)
  return readable ? `${id}-${readable}` : id
}

const memo = new WeakMap<EnterprisesPayload, Projects>()

/** The projects of an enterprises payload (worked out once per payload object in an isolate). */
export function projectsOf(payload: EnterprisesPayload): Projects {
  const known = memo.get(payload)
  if (known) return known
  const list: Project[] = []
  const problems: ProjectProblem[] = []
  const byId = new Map<string, Project>()
  payload.enterprises.forEach((item, index) => {
    const id = idOf(item)
    if (!id) return problems.push({ index, problem: 'no-id' })
    if (!PROJECT_ID_PATTERN.test(id)) return problems.push({ index, problem: 'unusable-id' })
    if (byId.has(id)) return problems.push({ index, problem: 'duplicate-id' })
    if (LANGUAGES.some((lng) => pickLocalized(item, 'title', lng).trim() === ''))
      return problems.push({ index, problem: 'no-title' })
    if (!item.img) problems.push({ index, problem: 'no-image' })
    const project = { id, slug: slugOf(id, item), item }
    byId.set(id, project)
    list.push(project)
  })
  const projects = {
    list,
    byItem: new Map(list.map((project) => [project.item, project])),
    byId,
    problems,
  }
  memo.set(payload, projects)
  return projects
}

/** Whether a path without language prefix has the shape of a project's page (`/enterprises/<one segment>`). */
export function isProjectPath(pageKey: string): boolean {
  return (
    pageKey.startsWith(`${PROJECTS_PATH}/`) &&
    pageKey.length > PROJECTS_PATH.length + 1 &&
    !pageKey.slice(PROJECTS_PATH.length + 1).includes('/')
  )
}

/** The page path of a project, without language prefix: `/enterprises/1-arabkir-residence`. */
export function projectPath(project: Project): string {
  return `${PROJECTS_PATH}/${project.slug}`
}

/**
 * The project a slug names: `exact` when it is the current slug, else the project whose id the slug
 * starts with (an old or missing readable part, to be redirected). Null for no project.
 */
export function findProject(
  projects: Projects,
  slug: string
): { project: Project; exact: boolean } | null {
  const exact = projects.list.find((project) => project.slug === slug)
  if (exact) return { project: exact, exact: true }
  const cut = slug.indexOf('-')
  const project = projects.byId.get(cut === -1 ? slug : slug.slice(0, cut))
  return project ? { project, exact: false } : null
}

/** The page paths of every project: the sitemap's and the scheduled refresh's list. */
export function projectPaths(payload: EnterprisesPayload): string[] {
  return projectsOf(payload).list.map(projectPath)
}

/** A sentence per problem for the report: `enterprises[3]: duplicate id "2" (no page)`. */
export function describeProblems(
  payload: EnterprisesPayload,
  problems: readonly ProjectProblem[]
): string[] {
  return problems.map(({ index, problem }) => {
    const id = payload.enterprises[index]?.id
    const named = id === '' || id === undefined ? '' : ` ${JSON.stringify(String(id))}`
    const what = {
      'no-id': 'no id (no page)',
      'unusable-id': `id${named} cannot be part of an address: letters, digits, '_', '.', '~' only (no page)`,
      'duplicate-id': `duplicate id${named}: only its first item has a page (no page)`,
      'no-title': 'no title in every language (no page)',
      'no-image': 'no image (its page shows the bundled banner)',
    }[problem]
    return `enterprises[${index}]: ${what}`
  })
}
