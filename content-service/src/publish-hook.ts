/**
 * Tells the site that a payload changed: its publish hook (POST `${SITE_ORIGIN}/api/publish`,
 * src/routes/publish.ts of the site) signed as the site expects, HMAC-SHA256 under the shared
 * PUBLISH_SECRET over `<timestamp>.<body>`, so that the site loads the payload at once.
 */
import type { AppEnv } from './env'

/** What the call did: the site's answer, or why it was not made. */
export type HookOutcome = { status: number; body: unknown } | { skipped: string }

export async function callPublishHook(
  env: AppEnv['Bindings'],
  endpoint: string
): Promise<HookOutcome> {
  if (!env.SITE_ORIGIN) return { skipped: 'SITE_ORIGIN is not set' }
  if (!env.PUBLISH_SECRET) return { skipped: 'PUBLISH_SECRET is not set' }
  const body = JSON.stringify({ payloads: [endpoint] })
  const timestamp = String(Math.floor(Date.now() / 1000))
  const key = await crypto.subtle.importKey(
    'raw',
    new TextEncoder().encode(env.PUBLISH_SECRET),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign']
  )
  const mac = new Uint8Array(
    await crypto.subtle.sign('HMAC', key, new TextEncoder().encode(`${timestamp}.${body}`))
  )
  const signature = [...mac].map((byte) => byte.toString(16).padStart(2, '0')).join('')
  try {
    const response = await fetch(new URL('/api/publish', env.SITE_ORIGIN), {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        'X-Publish-Timestamp': timestamp,
        'X-Publish-Signature': `sha256=${signature}`,
      },
      body,
    })
    const text = await response.text()
    let answer: unknown = text
    try {
      answer = JSON.parse(text)
    } catch {
      // A plain-text answer (a refusal) is passed on as it is.
    }
    return { status: response.status, body: answer }
  } catch (error) {
    return { skipped: `the site could not be reached: ${String(error)}` }
  }
}
