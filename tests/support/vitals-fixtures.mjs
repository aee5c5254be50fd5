/**
 * Fixture rows for the fake Analytics Engine SQL API (./fake-analytics-sql.mjs): vitals and client
 * errors as src/routes/telemetry.ts writes them, sampled (`_sample_interval` 1 to 10), over two
 * versions, three devices and three countries, made by a seeded generator so every run is the same.
 *
 * - `good`: every metric's p75 is good, on every device;
 * - `poor-lcp`: the same, but LCP's p75 is poor.
 * Both hold rows older than 7 days with extreme values, which a 7-day report must leave out; too
 * few tablet readings for a verdict; and pages and messages a hostile beacon could write. Messages
 * the site kept (src/contact/message-data-point.ts) come from the contact page, about a project or
 * none, and one from a page without page views; projects' pages have page views of their own
 * (PROJECT_PAGE_VIEWS).
 */
import { THRESHOLDS } from '../../scripts/lib/vitals/report.mjs'
import { seededRandom } from '../../scripts/lib/seeded-random.mjs'

export const VERSIONS = {
  previous: '0c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f',
  latest: '5f3c2a9e-8b1d-4c7e-9a6f-0d2e4b8c1a37',
}
export const HOSTILE_PAGES = ["/x' OR '1'='1", "/a'); DROP TABLE erebuni_vitals; --"]
const PAGES = ['/', '/about', '/enterprises', '/contact-us']
/**
 * Page views of project pages, as [page, country, weight, rows, days ago]. Project 1's page was seen
 * under two slugs (its title changed), 6 * 10 + 2 * 5 = 70 views in a week, 20 of them in Armenia;
 * project 10's page must not count as 1's; project 5's page (an id-only slug) has 3 * 10 = 30, too
 * few for a ratio.
 */
export const PROJECT_PAGE_VIEWS = [
  ['/enterprises/1-arabkir-residence', 'AM', 10, 2, 1],
  ['/enterprises/1-arabkir-residence', 'DE', 10, 4, 1],
  ['/enterprises/1-arabkir', 'US', 5, 2, 3],
  ['/enterprises/10-kentron', 'AM', 10, 4, 1],
  ['/enterprises/5', 'AM', 10, 3, 2],
  // Outside a 7-day report.
  ['/enterprises/1-arabkir-residence', 'AM', 1000, 1, 20],
]
const WEIGHTS = [1, 1, 1, 2, 2, 5, 10]
const RANGES = {
  good: {
    LCP: [500, 2800],
    INP: [20, 220],
    CLS: [0, 0.12],
    FCP: [300, 2000],
    TTFB: [50, 900],
  },
}
RANGES['poor-lcp'] = { ...RANGES.good, LCP: [2000, 9000] }

function ratingOf(metric, value) {
  const { good, poor } = THRESHOLDS[metric]
  return value <= good ? 'good' : value > poor ? 'poor' : 'needs-improvement'
}

export function fixtureRows(name = 'good', now = new Date()) {
  const ranges = RANGES[name]
  if (!ranges) throw new Error(`unknown fixture ${name}: good or poor-lcp`)
  const next = seededRandom(40)
  const pick = (list) => list[Math.floor(next() * list.length)]
  const ago = (days) => new Date(now.getTime() - days * 86_400_000)
  const rows = []
  const vital = ({
    metric,
    value,
    device,
    page,
    country,
    version,
    cache,
    serverMs,
    when,
    weight,
    lng,
  }) =>
    rows.push({
      timestamp: when,
      _sample_interval: weight,
      index1: metric,
      blob1: 'vital',
      blob2: metric,
      blob3: ratingOf(metric, value),
      blob4: page,
      blob5: lng ?? pick(['hy', 'en', 'ru']),
      blob6: 'navigate',
      blob7: country,
      blob8: device,
      blob9: version,
      blob10: cache,
      double1: value,
      double2: serverMs,
    })
  for (const [device, views] of [
    ['phone', 60],
    ['desktop', 45],
    ['tablet', 6],
  ]) {
    for (let view = 0; view < views; view++) {
      const latest = next() < 0.5
      const common = {
        device,
        page: pick(PAGES),
        country: pick(['AM', 'AM', 'DE', 'US']),
        version: latest ? VERSIONS.latest : VERSIONS.previous,
        when: latest ? ago(next() * 2) : ago(2 + next() * 4),
        weight: pick(WEIGHTS),
      }
      const cache = pick(['edge', 'edge', 'hit', 'miss', 'uncached'])
      const serverMs =
        cache === 'edge'
          ? -1
          : cache === 'hit'
            ? Math.round(next() * 5)
            : 50 + Math.round(next() * 350)
      for (const [metric, [low, high]] of Object.entries(ranges)) {
        const value = low + (high - low) * next() ** 2
        vital({
          ...common,
          metric,
          value: metric === 'CLS' ? value : Math.round(value),
          cache,
          serverMs,
        })
      }
    }
  }
  // A hostile beacon's pages: stored as any page is, some readings poor, so they rank among the worst.
  for (const page of HOSTILE_PAGES)
    for (let i = 0; i < 12; i++)
      vital({
        metric: 'LCP',
        value: i < 2 ? 6000 : 1000,
        device: 'phone',
        page,
        country: 'US',
        version: VERSIONS.latest,
        cache: 'miss',
        serverMs: 100,
        when: ago(1),
        weight: 5,
      })
  // Old readings, outside a 7-day report: extreme and heavy, so a report that took them would show it.
  for (const metric of Object.keys(ranges))
    vital({
      metric,
      value: 60_000,
      device: 'phone',
      page: '/',
      country: 'AM',
      version: VERSIONS.previous,
      cache: 'miss',
      serverMs: 9000,
      when: ago(20),
      weight: 1000,
    })
  // Project pages' page views (TTFB readings, good), outside the seeded sequence so the rows above
  // stay as they are.
  for (const [page, country, weight, times, days] of PROJECT_PAGE_VIEWS)
    for (let i = 0; i < times; i++)
      vital({
        metric: 'TTFB',
        value: 300,
        device: 'desktop',
        page,
        country,
        version: VERSIONS.latest,
        cache: 'miss',
        serverMs: 100,
        when: ago(days),
        weight,
        lng: 'en',
      })
  const errors = [
    ['TypeError: x is undefined', 'https://www.erebuni.example/assets/main-abc.js', 30],
    ['chunk-load failure: island "carousel"', '', 12],
    ["\u001b[31mred'); DROP TABLE erebuni_vitals; --", 'javascript:alert(1)', 4],
  ]
  for (const [message, source, weight] of errors)
    rows.push({
      timestamp: ago(1),
      _sample_interval: weight,
      index1: 'client-error',
      blob1: 'client-error',
      blob2: 'error',
      blob3: message,
      blob4: source,
      blob5: '/about',
      blob6: 'en',
      blob7: '',
      blob8: 'AM',
      double1: 1,
      double2: 2,
    })
  const messages = [
    ['/contact-us', '1', 'en', 'AM', 1, 1],
    ['/contact-us', '1', 'hy', 'AM', 5, 2],
    ['/contact-us', '1', 'ru', 'DE', 10, 3],
    ['/contact-us', '', 'hy', 'AM', 2, 1],
    ['/contact-us', '', 'en', 'US', 2, 5],
    ['/contact-us', '5', 'ru', 'US', 1, 4],
    ['/no-views', '2', 'en', 'AM', 3, 1],
    // Outside a 7-day report.
    ['/contact-us', '1', 'en', 'AM', 1000, 20],
  ]
  for (const [page, project, lng, country, weight, days] of messages)
    rows.push({
      timestamp: ago(days),
      _sample_interval: weight,
      index1: 'message',
      blob1: 'message',
      blob2: page,
      blob3: lng,
      blob4: project,
      blob5: 'phone',
      blob6: country,
    })
  return rows
}
