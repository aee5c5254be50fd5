#!/usr/bin/env node
/**
 * `npm run contact:resend -- <site origin> [id ...]`: puts the contact outbox's dead letters back
 * on the queue (POST /api/contact/resend, src/routes/contact-resend.ts), every one or the ids
 * named, once whatever kept the backend from taking them is fixed. The call is signed with
 * PUBLISH_SECRET (the same secret and scheme as the publish hook), read from the environment:
 *
 *   PUBLISH_SECRET=... npm run contact:resend -- https://erebuni.example.am
 *
 * Prints the site's answer ({resent, failed, missing}: ids); exits 1 when the call is refused or
 * some letter could not be queued (it stays kept; run it again).
 */
import { CONTACT_RESEND_PATH } from '../../src/shared/site-paths.ts'
import { signedJsonHeaders } from '../lib/publish-signing.mjs'

const [origin, ...ids] = process.argv.slice(2)
const secret = process.env.PUBLISH_SECRET
if (!origin || !/^https?:\/\//.test(origin))
  fail(
    'usage: PUBLISH_SECRET=... npm run contact:resend -- <site origin, e.g. https://erebuni.example.am> [id ...]'
  )
if (!secret) fail("PUBLISH_SECRET is not set: the call is signed with the site's publish secret")

const body = JSON.stringify(ids.length ? { ids } : {})
const response = await fetch(new URL(CONTACT_RESEND_PATH, origin), {
  method: 'POST',
  headers: signedJsonHeaders(secret, body),
  body,
  signal: AbortSignal.timeout(60_000),
}).catch((error) => fail(`${origin}: ${String(error)}`))
const text = await response.text()
console.log(`${response.status} ${text}`)
if (!response.ok) process.exit(1)
const report = JSON.parse(text)
console.log(
  `resent ${report.resent.length}, failed ${report.failed.length}, not found ${report.missing.length}`
)
if (report.failed.length) process.exit(1)

/** @param {string} message @returns {never} */
function fail(message) {
  console.error(message)
  process.exit(2)
}
