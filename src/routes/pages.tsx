/**
 * The page routes, mounted under '/', '/en' and '/ru'. Each handler loads everything its page and
 * the layout need in parallel before the first byte, so the status code is always right.
 */
import { Hono, type Context } from 'hono'
import { contentFor, type ContentClient } from '../freshness'
import type { AppEnv } from '../env'
import {
  imageSigningKeys,
  imageSrc,
  placeholdersFor,
  readPlaceholdersBeside,
  socialCardUrl,
} from '../images'
import { localizer } from '../content/localize'
import {
  findProject,
  isProjectPath,
  projectPath,
  projectsOf,
  type Project,
} from '../content/projects'
import { projectQuery } from '../shared/contact-fields'
import { getT } from '../shared/i18n'
import { localizePath, PREFIXED_LANGUAGES } from '../shared/languages'
import {
  CONTACT_PAGE_PATH,
  OLD_PROJECT_PATH,
  PAGE_PATHS,
  PROJECTS_PATH,
  SERVICES_PATH,
} from '../shared/site-paths'
import { FALLBACK } from '../views/components/image'
import { plainText } from '../views/components/rich-text'
import { ContactFormArea, type ContactFormState } from '../views/components/contact-form'
import { AboutPage } from '../views/pages/about-page'
import { ContactPage } from '../views/pages/contact-page'
import { EnterprisesPage } from '../views/pages/enterprises-page'
import { HomePage } from '../views/pages/home-page'
import { ProjectPage } from '../views/pages/project-page'
import type { PageHead, Shell } from '../views/shell'
import { askedProject, asksSentNotice } from './page-query'

const pages = new Hono<AppEnv>()

/** Mounts the page routes on `app` under each language's prefix, then unprefixed (the default). */
export function routePages(app: Hono<AppEnv>): void {
  for (const lng of PREFIXED_LANGUAGES) app.route(`/${lng}`, pages)
  app.route('/', pages)
}

/**
 * The pages besides those, as URL patterns without language prefix: every project's page. Which
 * projects there are is the enterprises payload's to say (src/content/projects.ts).
 */
export const PAGE_PATTERNS: readonly string[] = [`${PROJECTS_PATH}/:project`]

/** Whether a path without language prefix (`c.var.pageKey`) may be one of this router's pages. */
export function isPagePath(pageKey: string): boolean {
  return PAGE_PATHS.includes(pageKey) || isProjectPath(pageKey)
}

// A page's render starts its placeholder read beside its payloads' (docs/decisions/0032).
pages.use('*', async (c, next) => {
  const reads = c.req.method === 'GET' || c.req.method === 'HEAD'
  if (reads && isPagePath(c.var.pageKey)) readPlaceholdersBeside(c)
  await next()
})

pages.get('/', async (c) => {
  const content = contentFor(c)
  // The enterprises payload says which cards have a project page (and at which address). Without
  // it (a backend failure before it was ever cached) the cards are shown without those links.
  const [shell, home, enterprises] = await Promise.all([
    loadShell(c, content),
    content.homePage(),
    content.enterprisesPage().catch(() => null),
  ])
  const placeholders = await placeholdersFor(c, [home])
  const projects = enterprises ? projectsOf(enterprises) : null
  return c.render(<HomePage lng={c.var.lng} home={home} projects={projects} />, {
    shell,
    placeholders,
  })
})

pages.get('/about', async (c) => {
  const content = contentFor(c)
  const [shell, about] = await Promise.all([loadShell(c, content), content.aboutPage()])
  const placeholders = await placeholdersFor(c, [about])
  return c.render(<AboutPage lng={c.var.lng} about={about} />, { shell, placeholders })
})

pages.get(PROJECTS_PATH, async (c) => {
  const content = contentFor(c)
  const [shell, page] = await Promise.all([loadShell(c, content), content.enterprisesPage()])
  const placeholders = await placeholdersFor(c, [page])
  return c.render(<EnterprisesPage lng={c.var.lng} page={page} />, { shell, placeholders })
})

// A project's page (src/content/projects.ts): its current slug renders, another readable part of
// its id redirects there, anything else is the 404 of any unknown page. Its layout reads the
// enterprises list's page meta data (the backend has none per project; a slug never reaches it).
pages.get(`${PROJECTS_PATH}/:slug`, async (c) => {
  const content = contentFor(c)
  const [shell, page] = await Promise.all([
    loadShell(c, content, PROJECTS_PATH),
    content.enterprisesPage(),
  ])
  const projects = projectsOf(page)
  const found = findProject(projects, c.req.param('slug'))
  if (!found) return c.notFound()
  const lng = c.var.lng
  if (!found.exact) return c.redirect(localizePath(projectPath(found.project), lng), 301)
  const { project } = found
  const placeholders = await placeholdersFor(c, [page])
  const pick = localizer(lng)
  const t = getT(lng)
  const title = pick(project.item, 'title')
  const listName = (shell.navbar && pick(shell.navbar, 'enterprises')) || t('ui.enterprises')
  const head: PageHead = {
    title,
    description: plainText(pick(project.item, 'description')),
    image: project.item.img
      ? `${shell.origin}${socialCardUrl(imageSrc(project.item.img), FALLBACK.banner, imageSigningKeys(c.env).current)}`
      : '',
    breadcrumbs: [
      { name: t('ui.home'), path: localizePath('/', lng) },
      { name: listName, path: localizePath(PROJECTS_PATH, lng) },
      { name: title, path: localizePath(projectPath(project), lng) },
    ],
  }
  return c.render(
    <ProjectPage lng={lng} project={project} projects={projects.list} listName={listName} />,
    {
      shell: { ...shell, head },
      placeholders,
    }
  )
})

// `?project=<id>` of a project: the form asks about it; any other query is the plain page (./page-query.ts).
pages.get(CONTACT_PAGE_PATH, (c) => {
  const form: ContactFormState = asksSentNotice(c) ? { outcome: { kind: 'sent' } } : {}
  return renderContactPage(c, form, askedProject(c))
})

// The spec links to these paths without giving them a screen. Cards no longer link to
// /enterprise-detail (their project's page took its place: docs/decisions/0018-project-pages.md);
// an address of it kept elsewhere still leads to the list.
pages.get(SERVICES_PATH, (c) => c.redirect(`${localizePath('/', c.var.lng)}#services`, 302))
pages.get(OLD_PROJECT_PATH, (c) => c.redirect(localizePath(PROJECTS_PATH, c.var.lng), 302))

/**
 * The contact page with its form as the last plain-form post left it (src/routes/contact.tsx),
 * asking about `project` when there is one: the language links keep it. A lookup that found no
 * project gives the plain form.
 */
export async function renderContactPage(
  c: Context<AppEnv>,
  form: ContactFormState,
  project?: Project | Promise<Project | null>
) {
  const [shell, asked] = await Promise.all([loadShell(c, contentFor(c)), project ?? null])
  const contact = shell.contact!
  const placeholders = await placeholdersFor(c, [contact])
  const lng = c.var.lng
  const area = (
    <ContactFormArea
      lng={lng}
      contact={contact}
      state={form}
      project={asked ?? undefined}
      origin={shell.origin}
    />
  )
  return c.render(<ContactPage lng={lng} contact={contact} form={area} />, {
    shell: { ...shell, ...(asked && { keptQuery: projectQuery(asked.id) }) },
    placeholders,
  })
}

/**
 * Navbar, contact and meta data for the layout (spec section 2: all three, or the error view).
 * `metaPage` is the page key whose meta data the backend has: the page's own, but the list's for a
 * project's page.
 */
async function loadShell(
  c: Context<AppEnv>,
  content: ContentClient,
  metaPage = c.var.pageKey
): Promise<Shell> {
  const [navbar, contact, meta] = await Promise.all([
    content.navbar(),
    content.contactData(),
    content.pageMeta(metaPage),
  ])
  return { ...baseShell(c), navbar, contact, meta, indexable: true }
}

/** The shell of a page rendered without backend data (404 and error views). */
export function baseShell(c: Context<AppEnv>): Shell {
  return {
    lng: c.var.lng ?? 'hy',
    pageKey: c.var.pageKey ?? '/',
    origin: new URL(c.req.url).origin,
    meta: null,
    navbar: null,
    contact: null,
    indexable: false,
  }
}
