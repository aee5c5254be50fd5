/**
 * A site of its own for the preview spec (tests/e2e/visitor-preview.spec.ts): `wrangler dev` with a preview secret, against the soak's
 * fake CMS (scripts/lib/fake-backend.mjs), whose about page has one gap of each kind in one language
 * or another; and signed links to its pages, made as a CMS or `npm run preview:link` makes them.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { ROOT, startSite } from '../../../scripts/lib/local-site.mjs'
import { startFakeBackend } from '../../../scripts/lib/fake-backend.mjs'
import { newNonce, signPreviewLink } from '../../../src/preview/signing'

/** What each language's visitors of /about miss, as its mark says, besides what all of them miss. */
export const ABOUT_MARKS = {
  hy: 'English text: arm_subTitleMission is empty',
  en: 'Section hidden: missions has no items',
  ru: 'English text: ru_titleMission is empty',
} as const

/** Every language's visitors of /about meet this gap. */
export const SHARED_MARK = 'HTML removed from descriptionMission'

export type PreviewSite = {
  origin: string
  /** A signed link to `page`'s preview (a public path such as '/ru/about'), valid for 30 minutes. */
  link: (page: string) => Promise<string>
  stop: () => Promise<void>
}

export async function startPreviewSite(name: string): Promise<PreviewSite> {
  const secret = `preview-e2e-${name}-${process.pid}-${Date.now()}-a-long-enough-secret`
  const backend = await startFakeBackend()
  backend.edit('about', {
    // Russian: a cleared rich-text field; Armenian: a missing one; every language: a hidden list
    // and a sanitized description.
    ru_titleMission: '<p><br></p>',
    arm_subTitleMission: undefined,
    missions: [],
    descriptionMission: '<p>We build for generations.<script>alert(1)</script></p>',
    ru_descriptionMission: undefined,
    arm_descriptionMission: undefined,
  })
  const state = mkdtempSync(path.join(os.tmpdir(), `preview-e2e-${name}-`))
  const site = await startSite({
    vars: { API_HOST: backend.origin, PREVIEW_SECRET: secret },
    persistTo: state,
    logFile: path.join(ROOT, `tests/e2e/test-results/preview-${name}-${process.pid}.log`),
  })
  return {
    origin: site.origin,
    link: (page) =>
      signPreviewLink(secret, site.origin, {
        path: page,
        expiresAt: Math.floor(Date.now() / 1000) + 30 * 60,
        nonce: newNonce(),
      }),
    stop: async () => {
      await site.stop()
      await backend.close()
      rmSync(state, { recursive: true, force: true })
    },
  }
}
