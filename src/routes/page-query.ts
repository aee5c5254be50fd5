/**
 * The query a page is rendered by, which is also the only query in its page cache key: on the
 * contact page, `?sent=1` (after a plain-form message was sent) and `?project=<id>` of a project the
 * enterprises list has; on any other page, nothing. Any other value (a campaign id, markup, 10 KB,
 * an id no project has, a project on another page, a second value) gets the plain page, from the
 * cache, so that no query makes the site render at will
 * (docs/decisions/0048-query-values-never-render-targets-met-or-retired.md).
 */
import type { Context } from 'hono'
import { contentFor } from '../freshness'
import type { Project } from '../content/projects'
import { findReferencedProject, projectIdOf } from '../contact'
import type { AppEnv } from '../env'
import { PROJECT_FIELD, projectQuery } from '../shared/contact-fields'
import { CONTACT_PAGE_PATH, SENT_PARAM } from '../shared/site-paths'

/** The project each request's contact page asks about, looked up once: by the page cache, then the route. */
const askedProjects = new WeakMap<Request, Promise<Project | null>>()

/** Whether the request is for the contact page's notice that a plain-form message was sent. */
export function asksSentNotice(c: Context<AppEnv>): boolean {
  return c.var.pageKey === CONTACT_PAGE_PATH && c.req.query(SENT_PARAM) === '1'
}

/**
 * The project the contact page asks about: the first `?project=` value, when it has an id's shape
 * and the enterprises list has a project with that id; else (and on any other page) null.
 */
export function askedProject(c: Context<AppEnv>): Promise<Project | null> {
  let asked = askedProjects.get(c.req.raw)
  if (!asked) {
    const reference = c.var.pageKey === CONTACT_PAGE_PATH && projectIdOf(c.req.query(PROJECT_FIELD))
    asked = reference ? findReferencedProject(contentFor(c), reference) : Promise.resolve(null)
    askedProjects.set(c.req.raw, asked)
  }
  return asked
}

/** The query the request's page is rendered by, in a fixed order (`?project=1&sent=1`), or ''. */
export async function renderedQuery(c: Context<AppEnv>): Promise<string> {
  const project = await askedProject(c)
  const sent = asksSentNotice(c) ? `${SENT_PARAM}=1` : ''
  if (!project) return sent && `?${sent}`
  return sent ? `${projectQuery(project.id)}&${sent}` : projectQuery(project.id)
}
