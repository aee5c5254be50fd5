// @ts-check
/**
 * The publish hook (src/routes/publish.ts) from outside: it refuses an unsigned call; called with
 * the environment's PUBLISH_SECRET it answers what it refreshed and purges nothing when no content
 * changed; and, decision 0004's second open question, a tag purge really drops a page from the
 * cache in front (a signed call with `purgeUnchanged` purges the about pages without any content
 * change, so the smoke edits nothing).
 */
import { PUBLISH_PATH as HOOK } from '../../../src/shared/site-paths.ts'
import { signedJsonHeaders } from '../../lib/publish-signing.mjs'
import { sleep } from './http.mjs'
import { frontCacheVerdict, isBehindCloudflare, NOT_BEHIND_CLOUDFLARE } from './platform.mjs'

/** The payload whose pages the purge check drops, and a page built from it. */
const PURGE_PAYLOAD = 'get-about-page'
const PURGE_PAGE = '/en/about'
/** Looks at the page after the purge this many times, 2 s apart: a purge takes seconds to reach everywhere. */
const PURGE_ATTEMPTS = 5

/**
 * @param {import('./http.mjs').Client} client
 * @param {import('./report.mjs').Report} report
 * @param {string | undefined} secret the environment's PUBLISH_SECRET, if the operator gave it
 */
export async function checkPublishHook(client, report, secret) {
  await report.guard('publish hook refuses an unsigned call', async () => {
    const answer = await client.request(HOOK, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{}',
    })
    const unconfigured = answer.status === 503 && !isBehindCloudflare(answer.headers)
    report.expect(
      answer.status === 401 || unconfigured,
      'publish hook refuses an unsigned call',
      `${answer.status} ${answer.text.trim()}${unconfigured ? ' (no PUBLISH_SECRET on this local site)' : ''}`
    )
  })
  if (!secret) {
    report.skip(
      'publish hook, signed',
      "PUBLISH_SECRET not given to the smoke (set it to the environment's hook secret to check the hook and the tag purge)"
    )
    return
  }
  await report.guard('publish hook, signed, nothing changed', async () => {
    const { answer, body } = await signedCall(client, secret, {})
    if (answer.status !== 200 || !body)
      return report.fail('publish hook, signed', `${answer.status} ${answer.text.trim()}`)
    const changedNotPurged = body.changed.filter(
      (/** @type {string} */ tag) => !body.purged.includes(tag)
    )
    const seen = `refreshed ${body.refreshed.length} payloads, changed [${body.changed.join(', ')}], purged [${body.purged.join(', ')}]`
    if (!body.refreshed.length || changedNotPurged.length)
      return report.fail('publish hook, signed', seen)
    if (body.changed.length)
      return report.pass('publish hook, signed (content had changed since the last refresh)', seen)
    // Content that changed one to two minutes ago is purged again by any refresh (the repeat purge
    // after KV's propagation, src/freshness/refresh.ts); a worker that does not say so (no
    // purgedAgain) is judged as before.
    const unexplained = body.purged.filter(
      (/** @type {string} */ tag) => !(body.purgedAgain ?? []).includes(tag)
    )
    report.expect(
      !unexplained.length,
      'publish hook, signed, nothing changed: purges nothing',
      unexplained.length
        ? `${seen}: purged pages of unchanged content: ${unexplained.join(', ')}`
        : body.purged.length
          ? `${seen}: all again, changed one to two minutes ago (the repeat purge)`
          : seen
    )
  })
  await checkTagPurge(client, report, secret)
}

/**
 * @param {import('./http.mjs').Client} client
 * @param {import('./report.mjs').Report} report
 * @param {string} secret
 */
async function checkTagPurge(client, report, secret) {
  const name = `tag purge drops ${PURGE_PAGE} from the cache in front`
  await report.guard(name, async () => {
    let before = await client.request(PURGE_PAGE)
    const behind = isBehindCloudflare(before.headers)
    for (
      let attempt = 1;
      behind && !frontCacheVerdict(before.headers).hit && attempt < 3;
      attempt++
    ) {
      await sleep(1_000)
      before = await client.request(PURGE_PAGE)
    }
    const { answer, body } = await signedCall(client, secret, {
      payloads: [PURGE_PAYLOAD],
      purgeUnchanged: true,
    })
    const tag = `payload:${PURGE_PAYLOAD}`
    const purged = answer.status === 200 && body?.purged.includes(tag)
    report.expect(
      Boolean(purged),
      `publish hook purges on request (${tag})`,
      `${answer.status}, purged [${body?.purged.join(', ') ?? answer.text.trim()}]`
    )
    if (!behind) return report.skip(name, NOT_BEHIND_CLOUDFLARE)
    const cachedBefore = frontCacheVerdict(before.headers)
    if (!cachedBefore.hit)
      return report.fail(
        name,
        `not checked: the page was never a hit before the purge (${cachedBefore.said})`
      )
    const seen = [`before: ${cachedBefore.said}`]
    for (let attempt = 1; attempt <= PURGE_ATTEMPTS; attempt++) {
      const after = frontCacheVerdict((await client.request(PURGE_PAGE)).headers)
      seen.push(`after: ${after.said}`)
      if (!after.hit) return report.pass(name, seen.join(' -> '))
      await sleep(2_000)
    }
    report.fail(
      name,
      `${seen.join(' -> ')}: still served from the cache ${PURGE_ATTEMPTS * 2} s after the purge`
    )
  })
}

/**
 * A call signed as a CMS signs it (src/routes/publish-signature.ts).
 * @param {import('./http.mjs').Client} client
 * @param {string} secret
 * @param {object} payload
 */
async function signedCall(client, secret, payload) {
  const text = JSON.stringify(payload)
  const answer = await client.request(HOOK, {
    method: 'POST',
    headers: signedJsonHeaders(secret, text),
    body: text,
  })
  /** @type {{ refreshed: string[], changed: string[], failed: string[], purged: string[], purgedAgain?: string[] } | null} */
  let body = null
  try {
    const parsed = JSON.parse(answer.text)
    if (
      Array.isArray(parsed.refreshed) &&
      Array.isArray(parsed.changed) &&
      Array.isArray(parsed.purged)
    )
      body = parsed
  } catch {
    // Not the hook's answer: reported with its text.
  }
  return { answer, body }
}
