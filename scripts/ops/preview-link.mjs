#!/usr/bin/env node
/**
 * `PREVIEW_SECRET=... npm run preview:link -- <path> [--origin URL] [--minutes N]`: prints a signed
 * link that opens the preview of the page at `path` (its public address: '/', '/en/about',
 * '/ru/enterprises/<slug>'), valid for N minutes (default 30, at most MAX_MINUTES).
 * `npm run preview:link -- --report [--origin URL]` prints one to the content report's page.
 * The origin defaults to the site of `npm start`. The link is signed by the worker's own code
 * (src/preview/signing.ts, bundled for Node with esbuild); its format, for a CMS that makes links
 * itself: docs/operations.md, "Preview a change".
 *
 * Exit status: 0 with the link on stdout; 2 for a bad command line or no PREVIEW_SECRET, with why.
 */
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { loadSiteModule } from '../lib/load-site-module.mjs'
import { parseOperatorCommand, UsageError } from '../lib/operator-options.mjs'

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')
const USAGE =
  'usage: PREVIEW_SECRET=... npm run preview:link -- <path> [--origin URL] [--minutes N]\n' +
  '       PREVIEW_SECRET=... npm run preview:link -- --report [--origin URL] [--minutes N]'
const DEFAULT_ORIGIN = 'http://localhost:8787'
const DEFAULT_MINUTES = 30
/** A week: a link is a key to unpublished content, so it should not outlive the review. */
const MAX_MINUTES = 7 * 24 * 60

function options() {
  const { values, positionals } = parseOperatorCommand(
    {
      origin: { type: 'string', default: DEFAULT_ORIGIN },
      minutes: { type: 'string', default: String(DEFAULT_MINUTES) },
      report: { type: 'boolean', default: false },
    },
    USAGE
  )
  if (values.report ? positionals.length > 0 : positionals.length !== 1)
    throw new UsageError('give one page path, such as /en/about, or --report')
  const pagePath = values.report ? undefined : positionals[0]
  if (pagePath !== undefined && !/^\/[^?#\s]*$/.test(pagePath))
    throw new UsageError(
      `the path must be a page's public address, such as / or /en/about, not ${JSON.stringify(pagePath)}`
    )
  if (!/^https?:\/\/[^/]+\/?$/.test(values.origin))
    throw new UsageError(
      `--origin must be an http(s) origin, such as https://erebuni.example.am, not ${JSON.stringify(values.origin)}`
    )
  const minutes = Number(values.minutes)
  if (!Number.isInteger(minutes) || minutes < 1 || minutes > MAX_MINUTES)
    throw new UsageError(`--minutes must be a whole number from 1 to ${MAX_MINUTES}`)
  return { pagePath, origin: values.origin, minutes }
}

/** The worker's signing code (./preview-link/link.ts), bundled for Node (../lib/load-site-module.mjs). */
function loadSigning() {
  return loadSiteModule({
    root: ROOT,
    entry: 'scripts/ops/preview-link/link.ts',
    name: 'preview-link',
  })
}

async function main() {
  const { pagePath, origin, minutes } = options()
  const secret = process.env.PREVIEW_SECRET
  if (!secret)
    throw new UsageError(
      "PREVIEW_SECRET is not set: links are signed with the site's preview secret"
    )
  const signing = await loadSigning()
  const link = await signing.signPreviewLink(secret, origin, {
    path: pagePath ?? signing.PREVIEW_REPORT_PATH,
    expiresAt: Math.floor(Date.now() / 1000) + minutes * 60,
    nonce: signing.newNonce(),
  })
  console.log(link)
}

main().catch((error) => {
  if (error instanceof UsageError) {
    console.error(`preview:link: ${error.message}\n${USAGE}`)
    process.exit(2)
  }
  console.error(error)
  process.exit(1)
})
