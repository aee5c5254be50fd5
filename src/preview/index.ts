/**
 * Preview mode: editors see the backend's content of this moment (drafts, with the editor's token)
 * on the site's pages at `/_preview/...`, behind a signed link, before visitors do
 * (docs/decisions/0045-preview-mode.md; runbook: docs/operations.md, "Preview a change").
 */
import { Hono } from 'hono'
import type { AppEnv } from '../env'
import { PREVIEW_PREFIX } from '../shared/preview-paths'
import { previewSite } from './site'

/** Every request under PREVIEW_PREFIX, handed to the preview site. */
export const preview = new Hono<AppEnv>()

preview.all(PREVIEW_PREFIX, (c) => previewSite.fetch(c.req.raw, c.env, c.executionCtx))
preview.all(`${PREVIEW_PREFIX}/*`, (c) => previewSite.fetch(c.req.raw, c.env, c.executionCtx))
export { previewContentFor } from './preview-content'
