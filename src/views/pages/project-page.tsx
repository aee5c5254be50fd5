/**
 * One project's page (src/content/projects.ts): its photo as the banner with its title,
 * the way back (breadcrumbs), its description, its linked icon and its button, then the other
 * projects to go on to.
 *
 * The page always has a way to ask about the project (decision 0040): a button of the CMS that
 * leads to the contact page leads there with the project (`?project=<id>`); without such a button
 * (none, or one that leads elsewhere) the page adds its own, in its language.
 */
import { localizer } from '../../content/localize'
import { projectPath, type Project } from '../../content/projects'
import { getT } from '../../shared/i18n'
import { contactPathAbout } from '../../shared/contact-fields'
import { CONTACT_PAGE_PATH, PROJECTS_PATH } from '../../shared/site-paths'
import { localizePath, splitLanguagePrefix, type Lng } from '../../shared/languages'
import { wholeWordsStyle } from '../../shared/longest-word'
import { ButtonLink } from '../components/button-link'
import { resolveLink } from '../components/smart-link'
import { FALLBACK, Image } from '../components/image'
import { PageBanner } from '../components/page-banner'
import { RichText } from '../components/rich-text'
import { SectionBoundary } from '../components/section-boundary'
import { SectionHeading } from '../components/section-heading'
import { IconLink } from '../components/icon-link'
import { GapMarks } from '../components/gap-marks'

type ProjectPageProps = {
  lng: Lng
  project: Project
  /** Every project, this one included, in the payload's order. */
  projects: readonly Project[]
  /** The enterprises list's name in the navbar (backend label, else the dictionary). */
  listName: string
}

export function ProjectPage({ lng, project, projects, listName }: ProjectPageProps) {
  const pick = localizer(lng)
  const t = getT(lng)
  const { item } = project
  const title = pick(item, 'title')
  const others = projects.filter((other) => other !== project)
  return (
    <>
      <PageBanner lng={lng} image={item.img} title={title} />
      <GapMarks place="project" />
      <section className="section project">
        <div className="container project__layout">
          <nav className="breadcrumbs" aria-label={t('ui.breadcrumbs')}>
            <ol>
              <li>
                <a href={localizePath('/', lng)}>{t('ui.home')}</a>
              </li>
              <li>
                <a href={localizePath(PROJECTS_PATH, lng)}>{listName}</a>
              </li>
              <li aria-current="page">{title}</li>
            </ol>
          </nav>
          <div className="project__body">
            <RichText
              className="rich-text project__text"
              html={pick(item, 'description')}
              lng={lng}
            />
            <div className="project__actions">
              {leadsToContactPage(item.btnLink, lng) && pick(item, 'btnName').trim() ? (
                <ButtonLink
                  lng={lng}
                  label={pick(item, 'btnName')}
                  href={contactPathAbout(project.id, lng)}
                  about={title}
                />
              ) : (
                <>
                  <ButtonLink
                    lng={lng}
                    label={pick(item, 'btnName')}
                    href={item.btnLink}
                    about={title}
                  />
                  <ButtonLink
                    lng={lng}
                    label={t('ui.askAboutProject')}
                    href={contactPathAbout(project.id, lng)}
                    variant="outline"
                    about={title}
                  />
                </>
              )}
              <IconLink className="project__icon" item={item} lng={lng} title={title} />
            </div>
          </div>
        </div>
      </section>
      {others.length > 0 ? (
        <SectionBoundary>
          <section
            className="section section--tinted project-others"
            aria-labelledby="project-others-title"
          >
            <div className="container">
              <SectionHeading id="project-others-title" title={t('ui.otherProjects')} />
              <ul className="project-others__list">
                {others.map((other) => (
                  <li key={other.id}>
                    <ProjectCard lng={lng} project={other} title={pick(other.item, 'title')} />
                  </li>
                ))}
              </ul>
            </div>
          </section>
        </SectionBoundary>
      ) : null}
    </>
  )
}

/** Whether a button's address is the site's contact page, in any language, with any query or hash. */
function leadsToContactPage(href: string, lng: Lng): boolean {
  const link = resolveLink(href, lng)
  if (!link || link.external) return false
  const pathname = link.href.split(/[?#]/)[0]!
  return splitLanguagePrefix(pathname).path === CONTACT_PAGE_PATH
}

/** Another project: its photo and its title, both leading to its page. */
function ProjectCard({ lng, project, title }: { lng: Lng; project: Project; title: string }) {
  const href = localizePath(projectPath(project), lng)
  return (
    <article className="project-card">
      <a className="project-card__photo-link" href={href} tabIndex={-1} aria-hidden="true">
        <Image
          className="project-card__image"
          src={project.item.img}
          fallback={FALLBACK.enterprise}
          alt={title}
          width={640}
          height={440}
          layout="card"
        />
      </a>
      <div className="project-card__body">
        <h3 className="project-card__title" style={wholeWordsStyle(title)}>
          <a href={href}>{title}</a>
        </h3>
      </div>
    </article>
  )
}
