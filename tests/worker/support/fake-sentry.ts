/**
 * A Sentry ingest endpoint at `fetch` that collects the events of every envelope it receives, for
 * tests that check what was reported (src/observability). Install it before a fake backend, which
 * passes other origins on to it.
 */
export const SENTRY_DSN = 'https://publickey123@sentry.test/42'

export type SentryEvent = { tags?: Record<string, string>; exception?: { values?: { type?: string; value?: string }[] } }

export function fakeSentry() {
  const previous = globalThis.fetch
  const events: SentryEvent[] = []
  globalThis.fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init)
    if (new URL(request.url).hostname !== 'sentry.test') return previous(input, init)
    const [, ...items] = (await request.text()).split('\n').filter(Boolean)
    for (let i = 0; i + 1 < items.length; i += 2) {
      if ((JSON.parse(items[i]!) as { type?: string }).type === 'event') events.push(JSON.parse(items[i + 1]!) as SentryEvent)
    }
    return new Response('{}', { status: 200 })
  }
  return { events, restore: () => void (globalThis.fetch = previous) }
}
