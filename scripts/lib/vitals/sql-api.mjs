/**
 * The Analytics Engine SQL API, as `npm run vitals` calls it: POST the query text to
 * `{CLOUDFLARE_API_BASE_URL}/accounts/{account}/analytics_engine/sql` with a bearer token
 * (https://developers.cloudflare.com/analytics/analytics-engine/sql-api/), and read the JSON
 * format's `meta` and `data` (sql-reference/statements, "FORMAT clause").
 *
 * A 429 or 503 is tried again after its Retry-After (seconds or an HTTP date; 1 s when absent),
 * at most MAX_ATTEMPTS times and never waiting more than MAX_WAIT_SECONDS at once. A refused token
 * and an answer that is not the documented shape are errors that say so.
 */
export const DEFAULT_API_BASE_URL = 'https://api.cloudflare.com/client/v4'
export const MAX_ATTEMPTS = 4
export const MAX_WAIT_SECONDS = 30

export class SqlApiError extends Error {
  name = 'SqlApiError'
}

/** The numbers in a row come back as JSON numbers or, for 64-bit integers, as strings. */
export function numberOf(value) {
  const number = typeof value === 'number' ? value : Number(value)
  return Number.isFinite(number) ? number : NaN
}

/** Runs one query; resolves to its rows (`data`). */
export async function runQuery(
  sql,
  {
    accountId,
    token,
    baseUrl = DEFAULT_API_BASE_URL,
    fetch = globalThis.fetch,
    sleep = defaultSleep,
  }
) {
  const url = `${baseUrl.replace(/\/+$/, '')}/accounts/${encodeURIComponent(accountId)}/analytics_engine/sql`
  for (let attempt = 1; ; attempt++) {
    let response
    try {
      response = await fetch(url, {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'text/plain' },
        body: sql,
      })
    } catch (error) {
      throw new SqlApiError(
        `could not reach the SQL API at ${url}: ${error?.cause?.message ?? error}`
      )
    }
    const text = await response.text()
    if ((response.status === 429 || response.status === 503) && attempt < MAX_ATTEMPTS) {
      await sleep(waitSeconds(response.headers.get('Retry-After')) * 1000)
      continue
    }
    if (response.status === 401 || response.status === 403)
      throw new SqlApiError(
        `the SQL API refused the token (HTTP ${response.status}${apiMessage(text)}): CLOUDFLARE_API_TOKEN needs the Account Analytics Read permission on account ${accountId}`
      )
    if (response.status === 429 || response.status === 503)
      throw new SqlApiError(
        `the SQL API is still busy (HTTP ${response.status}) after ${MAX_ATTEMPTS} attempts; try again later`
      )
    if (!response.ok)
      throw new SqlApiError(`the SQL API answered HTTP ${response.status}${apiMessage(text)}`)
    let body
    try {
      body = JSON.parse(text)
    } catch {
      throw new SqlApiError(`the SQL API answered something that is not JSON: ${excerpt(text)}`)
    }
    if (!Array.isArray(body?.meta) || !Array.isArray(body?.data) || !body.data.every(isRow))
      throw new SqlApiError(
        `the SQL API's answer has no meta and data rows (the JSON format): ${excerpt(text)}`
      )
    return body.data
  }
}

function isRow(row) {
  return typeof row === 'object' && row !== null && !Array.isArray(row)
}

/** Retry-After in seconds (RFC 9110, section 10.2.3), within 0..MAX_WAIT_SECONDS. */
function waitSeconds(header) {
  if (header === null) return 1
  const seconds = /^\d+$/.test(header.trim())
    ? Number(header)
    : (Date.parse(header) - Date.now()) / 1000
  return Number.isFinite(seconds) ? Math.min(MAX_WAIT_SECONDS, Math.max(0, seconds)) : 1
}

/** `: message` from Cloudflare's `{errors: [{message}]}` envelope or a plain-text body. */
function apiMessage(text) {
  try {
    const messages = JSON.parse(text)
      ?.errors?.map((error) => error?.message)
      .filter(Boolean)
    if (messages?.length) return `: ${messages.join('; ')}`
  } catch {
    // Not JSON: the text itself.
  }
  return text.trim() ? `: ${excerpt(text)}` : ''
}

function excerpt(text) {
  const flat = text.replace(/\s+/g, ' ').trim()
  return flat.length > 200 ? `${flat.slice(0, 200)}…` : flat || '(empty)'
}

function defaultSleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms))
}
