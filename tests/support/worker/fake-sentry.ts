/**
 * A Sentry ingest endpoint at `fetch` that collects the events of every envelope it receives, for
 * tests that check what was reported (src/observability). Install it before a fake backend, which
 * passes other origins on to it; with `down`, every send fails as an unreachable Sentry would.
 */
export const SENTRY_HOST = 'sentry.test'
export const SENTRY_DSN = `https://publickey123@${SENTRY_HOST}/42`

export type SentryEvent = {
  release?: string
  tags?: Record<string, string>
  exception?: { values?: { type?: string; value?: string }[] }
  request?: { url?: string; method?: string; headers?: Record<string, string> }
}

export function fakeSentry({ down = false } = {}) {
  const previous = globalThis.fetch
  const urls: URL[] = []
  const events: SentryEvent[] = []
  globalThis.fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init)
    const url = new URL(request.url)
    if (url.hostname !== SENTRY_HOST) return previous(input, init)
    urls.push(url)
    if (down) throw new TypeError('Network connection lost.')
    // An envelope: a header line, then pairs of item header and item payload.
    const [, ...items] = (await request.text()).split('\n').filter(Boolean)
    for (let i = 0; i + 1 < items.length; i += 2) {
      if ((JSON.parse(items[i]!) as { type?: string }).type === 'event')
        events.push(JSON.parse(items[i + 1]!) as SentryEvent)
    }
    return new Response('{}', { status: 200 })
  }
  return { urls, events, restore: () => void (globalThis.fetch = previous) }
}
