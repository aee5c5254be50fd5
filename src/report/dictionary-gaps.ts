/** The keys of the bundled dictionaries (src/shared/i18n) that one language lacks or leaves empty. */
import { dictionaries } from '../shared/i18n'
import { LANGUAGES } from '../shared/languages'
import type { Finding } from './payload-gaps'

type Tree = { [key: string]: string | Tree }

/** Every leaf key of a dictionary with its text: `contact.title` -> 'Get in Touch'. */
function leavesOf(tree: Tree, prefix = ''): Map<string, string> {
  const leaves = new Map<string, string>()
  for (const [key, value] of Object.entries(tree)) {
    if (typeof value === 'string') leaves.set(`${prefix}${key}`, value)
    else for (const [leaf, text] of leavesOf(value, `${prefix}${key}.`)) leaves.set(leaf, text)
  }
  return leaves
}

/** One finding per key and language that lacks it while another language has it. */
export function findDictionaryGaps(): (Finding & { source: string })[] {
  const bundled = dictionaries as unknown as Record<string, Tree>
  const leaves = LANGUAGES.map((lng) => ({ lng, leaves: leavesOf(bundled[lng] ?? {}) }))
  const keys = new Set(leaves.flatMap(({ leaves }) => [...leaves.keys()]))
  return leaves.flatMap(({ lng, leaves }) =>
    [...keys]
      .filter((key) => !leaves.get(key)?.trim())
      .map((key) => ({
        lng,
        kind: 'dictionary-key' as const,
        source: `src/shared/i18n/${lng}.ts`,
        field: key,
        detail: 'missing: the Armenian text (or the key) is shown',
      }))
  )
}
