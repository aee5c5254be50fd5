/// <reference types="node" />
/**
 * The content report for Node: the entry ../content-check.mjs bundles with esbuild, importing the
 * site's own modules (src/content/report/ and what it uses: the payload loader, schemas, picker,
 * sanitizer, address and image checks), so the CLI cannot interpret content otherwise than the
 * site. Nothing here needs a Workers binding: the backend is reached over HTTP, originals are read
 * from public/ (site paths, as the image route reads its ASSETS binding) or fetched.
 */
import { readFile, stat } from 'node:fs/promises'
import path from 'node:path'
import {
  buildContentReport,
  imageUsesOf,
  judgeOriginal,
  loadPayloads,
  refusedSource,
  type ContentReport,
  type OriginalRead,
} from '../../../src/content/report'
import { MAX_ORIGINAL_BYTES } from '../../../src/images/limits'

export { acceptGaps, formatReportText, parseAcceptedGaps } from '../../../src/content/report'

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
  const reads = new Map<string, Promise<OriginalRead>>()
  const env = { API_HOST: backend.apiHost, IMAGE_ORIGINS: backend.imageOrigins }
  const extra = await Promise.all(
    imageUsesOf(loads).map(async (use) => {
      const refused = refusedSource(use.address, env)
      if (refused) return judgeOriginal(use, { error: `the image route refuses it: ${refused}` })
      if (!reads.has(use.address)) reads.set(use.address, readOriginal(use.address, backend))
      return judgeOriginal(use, await reads.get(use.address)!)
    })
  )
  return buildContentReport(loads, {
    backend: backend.label,
    extra: extra.filter((gap) => gap !== null),
  })
}

/** An original's first bytes and size: a site path from public/, a remote one over HTTP. */
async function readOriginal(address: string, backend: Backend): Promise<OriginalRead> {
  try {
    if (address.startsWith('/')) {
      const file = path.join(backend.publicDir, decodeURIComponent(address))
      const { size } = await stat(file)
      return { status: 200, bytes: size, head: new Uint8Array(await readFile(file)) }
    }
    const response = await fetch(address, { signal: AbortSignal.timeout(backend.timeoutMs) })
    const declared = Number(response.headers.get('Content-Length') ?? 0)
    if (declared > MAX_ORIGINAL_BYTES) {
      await response.body?.cancel()
      return { status: response.status, bytes: declared, head: new Uint8Array() }
    }
    const body = new Uint8Array(await response.arrayBuffer())
    return { status: response.status, bytes: body.length, head: body }
  } catch (error) {
    const code = (error as { code?: string }).code
    return { error: code === 'ENOENT' ? 'not found in public/' : String(error) }
  }
}
