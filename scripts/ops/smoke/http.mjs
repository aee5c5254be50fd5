// @ts-check
/**
 * The smoke's only way to the site: one request at a time, each with a time-out, and no more than
 * REQUEST_BUDGET in a run, so a smoke never loads a site harder than one visitor clicking around.
 */

/** Requests one smoke run may send in all. */
export const REQUEST_BUDGET = 80
/** Seconds one request may take, headers and body. */
export const REQUEST_TIMEOUT_MS = 20_000

/**
 * @typedef {{ status: number, headers: Headers, text: string, bytes: Uint8Array, ms: number }} Answer
 */

/**
 * @param {string} base the site's origin, e.g. https://staging.example.am
 * @param {Record<string, string>} [always] headers sent with every request
 */
export function createClient(base, always = {}) {
  let sent = 0
  return {
    get sent() {
      return sent
    },
    /**
     * @param {string} path a site path, or an absolute address on the site
     * @param {RequestInit} [init]
     * @returns {Promise<Answer>}
     */
    async request(path, init = {}) {
      if (sent >= REQUEST_BUDGET)
        throw new Error(`the smoke's budget of ${REQUEST_BUDGET} requests is spent`)
      sent += 1
      const url = new URL(path, base)
      if (url.origin !== new URL(base).origin) throw new Error(`${url} is not on ${base}`)
      const started = Date.now()
      const headers = new Headers(init.headers)
      for (const [name, value] of Object.entries(always)) headers.set(name, value)
      const response = await fetch(url, {
        redirect: 'manual',
        ...init,
        headers,
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      })
      const bytes = new Uint8Array(await response.arrayBuffer())
      const text = /^(text\/|application\/(json|xml))/.test(
        response.headers.get('Content-Type') ?? ''
      )
        ? new TextDecoder().decode(bytes)
        : ''
      return {
        status: response.status,
        headers: response.headers,
        text,
        bytes,
        ms: Date.now() - started,
      }
    },
  }
}

/** @typedef {ReturnType<typeof createClient>} Client */

export function sleep(/** @type {number} */ ms) {
  return new Promise((resolve) => setTimeout(resolve, ms))
}
