/**
 * Renders an island on the server: the component inside a marker element, then its props as JSON
 * for client/main.ts to hydrate it with. The marker names the island's stylesheets, which the
 * client loads with the island: they style only what hydration adds, so the first paint needs none
 * (docs/decisions/0001-client-islands.md).
 */
import type { ComponentType } from 'react'
import { BackToTop } from '../../client/islands/back-to-top'
import { Carousel } from '../../client/islands/carousel'
import { ContactForm } from '../../client/islands/contact-form'
import { LanguageDropdown } from '../../client/islands/language-dropdown'
import { NavbarMenu } from '../../client/islands/navbar-menu'
import type { IslandName, IslandProps } from '../../client/islands/registry'
import { clientManifest } from '../generated/client-manifest'

/** The server's view of client/islands/registry.ts: a missing island fails to compile. */
const components: { [N in IslandName]: ComponentType<IslandProps<N>> } = {
  'back-to-top': BackToTop,
  carousel: Carousel,
  'contact-form': ContactForm,
  'language-dropdown': LanguageDropdown,
  'navbar-menu': NavbarMenu,
}

export function Island<N extends IslandName>({ name, props }: { name: N; props: IslandProps<N> }) {
  const css: readonly string[] = clientManifest.islands[name].css
  const Component = components[name] as ComponentType<object>
  return (
    <>
      <div data-island={name} data-island-css={css.length ? css.join(' ') : undefined}>
        <Component {...props} />
      </div>
      <script
        type="application/json"
        data-island-props=""
        dangerouslySetInnerHTML={{ __html: serializeProps(props) }}
      />
    </>
  )
}

/**
 * JSON that is safe inside <script>: `<`, `>` and `&` cannot close the element or open a comment,
 * and U+2028/U+2029 are escaped as older JavaScript parsers required.
 */
export function serializeProps(props: object): string {
  return JSON.stringify(props).replace(
    /[<>&\u2028\u2029]/g,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`
  )
}
