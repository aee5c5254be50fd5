/**
 * The project a message is about (docs/decisions/0040-a-message-names-its-project.md): a project
 * page links to the contact page with `?project=<id>`, the form carries the id in a hidden field,
 * and the message the backend receives names the project in its comments, the only free-text field
 * of spec section 7: a note after the visitor's text, with the project's title and page address in
 * the page's language. The note counts against the backend's 500 characters, so the visitor has
 * that much less room (`commentsRoom`).
 *
 * A reference is a project only when it has an id's shape and the enterprises payload has a
 * project with that id; anything else is no project, and nothing of it is shown or forwarded.
 */
import type { ContentClient } from '../freshness'
import { localizer } from '../content/localize'
import { PROJECT_ID_PATTERN, projectPath, projectsOf, type Project } from '../content/projects'
import { COMMENTS_INPUT_MAX } from '../shared/contact-fields'
import type { Contact } from '../shared/contact-schema'
import { getT } from '../shared/i18n'
import { localizePath, type Lng } from '../shared/languages'

/** Characters of a title the note keeps; a longer one is cut, with an ellipsis. */
const NOTE_TITLE_MAX = 80

/** The reference when it has the shape of a project id, else null (markup, 10 KB, a list...). */
export function projectIdOf(value: unknown): string | null {
  return typeof value === 'string' && PROJECT_ID_PATTERN.test(value) ? value : null
}

/**
 * The project `reference` names, or null: not an id, no project with that id, or the enterprises
 * payload could not be read (the message then goes without its project; it is never lost for it).
 */
export async function findReferencedProject(
  content: ContentClient,
  reference: unknown
): Promise<Project | null> {
  const id = projectIdOf(reference)
  if (!id) return null
  try {
    return projectsOf(await content.enterprisesPage()).byId.get(id) ?? null
  } catch (error) {
    console.warn(`contact: project ${id} not looked up: ${String(error)}`)
    return null
  }
}

/** The project's title in `lng`. */
export function projectTitle(project: Project, lng: Lng): string {
  return localizer(lng)(project.item, 'title').trim()
}

/**
 * What the message's comments end with: a blank line, then "Project: <title>" and the page's
 * address in `lng`, on lines of their own.
 */
export function projectNote(project: Project, lng: Lng, origin: string): string {
  const characters = Array.from(projectTitle(project, lng))
  const title =
    characters.length > NOTE_TITLE_MAX
      ? `${characters.slice(0, NOTE_TITLE_MAX - 1).join('')}…`
      : characters.join('')
  const address = `${origin}${localizePath(projectPath(project), lng)}`
  return `\n\n${getT(lng)('contact.projectLabel')}: ${title}\n${address}`
}

/** How many characters the visitor may write beside the note (UTF-16 units, as `maxlength` counts). */
export function commentsRoom(note: string): number {
  return COMMENTS_INPUT_MAX - note.length
}

/** The message with the note after the visitor's text: still exactly name, email and comments. */
export function withProjectNote(contact: Contact, note: string): Contact {
  return { name: contact.name, email: contact.email, comments: `${contact.comments}${note}` }
}
