/// <reference types="node" />
/**
 * The content report for Node: the entry ../content-check.mjs bundles with esbuild, importing the
 * site's own modules (src/report/ and what it uses: the payload loader, schemas, picker,
 * sanitizer, address and image checks), so the CLI cannot interpret content otherwise than the
 * site. Nothing here needs a Workers binding: the backend is reached over HTTP, originals are opened
 * by the image route's own loader, with public/ standing in for its ASSETS binding.
 */
import { readFile } from 'node:fs/promises'
import path from 'node:path'
import {
  buildContentReport,
  findImageGaps,
  loadPayloads,
  type ContentReport,
} from '../../../src/report'

export { acceptGaps, formatReportText, parseAcceptedGaps } from '../../../src/report'

export type Backend = {
  /** The backend's origin (spec section 7: `${origin}/api/${product}/...`). */
  origin: string
  product: string
  /** Sent as the Authorization header (API_TOKEN). */
  token: string
  /** The site's META_PATH var. */
  metaPath: string
  /** The site's IMAGE_ORIGINS var. */
  imageOrigins: string
  /** The site's API_HOST as the image route sees it ('' for the bundled service). */
  apiHost: string
  /** How the report names the backend. */
  label: string
  /** Each backend call's and each original's time-out. */
  timeoutMs: number
  /** The folder site paths are read from (public/). */
  publicDir: string
}

/** No report can be made: the reason is the CLI's exit-2 line. */
export class NoReport extends Error {}

/** The content report of `backend`, images included. */
export async function makeReport(backend: Backend): Promise<ContentReport> {
  const loads = await loadPayloads(
    {
      API_HOST: backend.origin,
      API_TOKEN: backend.token,
      PRODUCT: backend.product,
      META_PATH: backend.metaPath,
      CONTENT: undefined as never,
    },
    backend.timeoutMs
  )
  const failed = [...loads.values()].filter((load) => 'error' in load)
  if (failed.length === loads.size)
    throw new NoReport(
      `the backend delivered none of ${loads.size} payloads (${'error' in failed[0]! ? failed[0].error : ''})`
    )
  const extra = await findImageGaps(loads, {
    env: { API_HOST: backend.apiHost, IMAGE_ORIGINS: backend.imageOrigins },
    assets: publicFolder(backend.publicDir),
    timeoutMs: backend.timeoutMs,
  })
  return buildContentReport(loads, { backend: backend.label, extra })
}

/**
 * public/ as the image route's ASSETS binding serves it: a site path's file, or 404. Only `fetch`
 * is used (../../../src/images/load-original.ts).
 */
function publicFolder(folder: string): Fetcher {
  const assets = {
    async fetch(input: RequestInfo | URL): Promise<Response> {
      const { pathname } = new URL(input instanceof Request ? input.url : input)
      const file = path.join(folder, decodeURIComponent(pathname))
      if (!file.startsWith(folder + path.sep)) return new Response(null, { status: 404 })
      try {
        return new Response(await readFile(file))
      } catch {
        return new Response(null, { status: 404 })
      }
    },
  }
  return assets as unknown as Fetcher
}
