import { beforeAll, describe, expect, test } from 'vitest'
import { STAMP } from './harness.js'
import type { Walk } from './walk.cases.js'
import { personUuid, WALKERS, type Walker } from './walk-data.js'

const RANGE = { date_from: '2026-01-12', date_to: '2026-01-14' }
/** Daily buckets of RANGE in UTC (reference §3.4). */
const DAYS = ['2026-01-12', '2026-01-13', '2026-01-14']
const LABELS = ['12-Jan-2026', '13-Jan-2026', '14-Jan-2026']

/** A GET query string: JSON values as their text, as PostHog's legacy GET endpoints take them. */
const queryOf = (params: Record<string, unknown>) =>
  new URLSearchParams(Object.entries(params).map(([k, v]): [string, string] => [k, typeof v === 'string' ? v : JSON.stringify(v)])).toString()

/** A person behind a point of an analysis. */
async function analysisPerson(w: Walk, who: Walker) {
  const { distinctId, properties, createdAt } = WALKERS[who]
  return { id: await personUuid(w.live, who), distinct_ids: [distinctId], properties, created_at: createdAt }
}

/**
 * Trends, funnels, the persons of a trend point, cancel and timing over the
 * walk's events (walk-data.ts); every count derived by hand from them.
 */
export function analysisWalks(w: Walk): void {
  describe('analyses', () => analysisCases(w))
}

function analysisCases(w: Walk): void {
  let paid: { id: number }
  let base: string
  beforeAll(async () => {
    base = `/api/projects/${w.live.a.project.id}/insights`
    paid = await w.live.sightline.actions.create(w.live.a.project.id, { name: 'Walk paid', steps: [{ event: 'walk_paid' }] })
  })

  /**
   * The trend of signups (total) and of the action "Walk paid" (daily active
   * persons), over RANGE. The action entity carries its name, as PostHog's
   * app sends it.
   */
  const trendParams = () => ({ events: [{ id: 'walk_signup' }], actions: [{ id: paid.id, name: 'Walk paid', type: 'actions', math: 'dau' }], ...RANGE })

  /**
   * Reference §1.1: actions come before events when no `order` is given, so
   * series 0 is the action. Walk paid: u1 on the 13th, u2 on the 14th.
   * walk_signup: u1 on the 13th; u1, u2 and u3 on the 14th.
   */
  function expectedTrend() {
    const params = trendParams()
    // README, a trend result's `filter`: each entity as sent with its type, math (`total` when unnamed) and properties
    // ([] when none); no properties asked for is PostHog's empty group, {}.
    const filter = expect.objectContaining({
      events: [{ id: 'walk_signup', type: 'events', math: 'total', properties: [] }],
      actions: [{ ...params.actions[0], properties: [] }],
      properties: {},
      insight: 'TRENDS',
      interval: 'day',
      display: 'ActionsLineGraph',
      filter_test_accounts: false,
    })
    const series = (label: string, data: number[], count: number, action: Record<string, unknown>) => ({
      data,
      labels: LABELS,
      days: DAYS,
      count,
      label,
      filter,
      action: expect.objectContaining({ type: 'events', custom_name: null, ...action }),
      persons_urls: expect.any(Array),
    })
    return {
      result: [
        series('Walk paid', [0, 1, 1], 2, { id: 'Walk paid', name: 'Walk paid', order: 0, math: 'dau' }),
        series('walk_signup', [0, 1, 3], 4, { id: 'walk_signup', name: 'walk_signup', order: 1, math: 'total' }),
      ],
      timezone: 'UTC',
      last_refresh: STAMP,
      is_cached: false,
    }
  }

  /** The request's parameters plus the point, one link per bucket; `url` relative to the site root, as PostHog's. */
  function expectPersonsUrls(links: Array<{ url: string; filter: Record<string, unknown> }>, entity: Record<string, unknown>) {
    const p = w.live.a.project.id
    const params = trendParams()
    expect(links).toHaveLength(DAYS.length)
    links.forEach((link, i) => {
      expect(Object.keys(link).sort()).toEqual(['filter', 'url'])
      const { target_date: targetDate, ...point } = link.filter
      expect(point).toEqual(entity)
      expect(Date.parse(String(targetDate))).toBe(Date.parse(`${DAYS[i]}T00:00:00Z`))
      expect(link.url.startsWith(`api/projects/${p}/persons/trends/?`), link.url).toBe(true)
      const query = Object.fromEntries(new URL(`http://site/${link.url}`).searchParams)
      expect(query).toEqual({
        events: JSON.stringify(params.events),
        actions: JSON.stringify(params.actions),
        ...RANGE,
        insight: 'TRENDS',
        ...Object.fromEntries(Object.entries(entity).map(([k, v]) => [k, String(v)])),
        target_date: targetDate,
      })
    })
  }

  test('trend: POST and GET, both series field for field, a persons link per bucket', async () => {
    const post = (await w.call('POST', `${base}/trend/`, 200, { body: trendParams() })).body
    expect(post).toEqual(expectedTrend())
    // The resolved range: the start of date_from's day to the end of date_to's (reference §3.2).
    const { filter } = post.result[0]
    expect([Date.parse(filter.date_from), Date.parse(filter.date_to)]).toEqual([Date.parse('2026-01-12T00:00:00Z'), Date.parse('2026-01-14T23:59:59.999Z')])
    expectPersonsUrls(post.result[0].persons_urls, { entity_id: paid.id, entity_type: 'actions', entity_math: 'dau', entity_order: 0 })
    expectPersonsUrls(post.result[1].persons_urls, { entity_id: 'walk_signup', entity_type: 'events', entity_math: 'total', entity_order: 1 })

    const get = (await w.call('GET', `${base}/trend/?${queryOf(trendParams())}`, 200)).body
    expect(get).toEqual(expectedTrend())
    expect(get.result.map((s: { persons_urls: unknown }) => s.persons_urls)).toEqual(post.result.map((s: { persons_urls: unknown }) => s.persons_urls))
  })

  test('persons/trends: the persons behind a point, by its link and by hand, most events first', async () => {
    const p = w.live.a.project.id
    const trend = (await w.live.call('POST', `${base}/trend/`, { body: trendParams() })).body
    // The action's point on the 14th: u2 paid that day.
    const link = trend.result[0].persons_urls[2].url
    expect((await w.call('GET', `/${link}`, 200)).body).toEqual({ count: 1, next: null, previous: null, results: [await analysisPerson(w, 'u2')] })

    // Signups over the whole range (a total-value display): u1 has two, u2 and u3 one each, then by id.
    const [once, onceMore] = [await analysisPerson(w, 'u2'), await analysisPerson(w, 'u3')].sort((x, y) => (x.id < y.id ? -1 : 1))
    const query = queryOf({ events: [{ id: 'walk_signup' }], ...RANGE, display: 'ActionsTable', entity_order: 0 })
    const first = (await w.call('GET', `/api/projects/${p}/persons/trends/?${query}&limit=2`, 200)).body
    expect(first).toEqual({ count: 3, next: expect.stringMatching(`^${w.live.origin}/api/projects/${p}/persons/trends/\\?`), previous: null, results: [await analysisPerson(w, 'u1'), once] })
    const second = (await w.live.call('GET', first.next)).body
    expect(second).toEqual({ count: 3, next: null, previous: expect.any(String), results: [onceMore] })
  })

  test('funnel: POST and GET, the steps view field for field', async () => {
    const p = w.live.a.project.id
    const params = { events: [{ id: 'walk_signup', order: 0 }, { id: 'walk_paid', order: 1 }], ...RANGE }
    /** DECISIONS.md: each step links to its persons, `funnel_step` n (reached step n) or -n (dropped before it). */
    const peopleUrl = (step: number) => expect.stringMatching(new RegExp(`^/api/projects/${p}/persons/funnel/\\?.*funnel_step=${step}$`))
    // Entered: u1, u2, u3. Converted within 14 days: u1 after 3600 s, u2 after 7200 s; u3 never paid.
    const steps = [
      { action_id: 'walk_signup', name: 'walk_signup', custom_name: null, order: 0, people: [], count: 3, type: 'events', average_conversion_time: null, median_conversion_time: null, converted_people_url: peopleUrl(1), dropped_people_url: null },
      { action_id: 'walk_paid', name: 'walk_paid', custom_name: null, order: 1, people: [], count: 2, type: 'events', average_conversion_time: 5400, median_conversion_time: 5400, converted_people_url: peopleUrl(2), dropped_people_url: peopleUrl(-2) },
    ]
    // last_refresh: the clock's NOW; its spelling is the reported case below.
    const expected = { result: steps, timezone: 'UTC', last_refresh: expect.any(String), is_cached: false }
    const post = (await w.call('POST', `${base}/funnel/`, 200, { body: params })).body
    expect(post).toEqual(expected)
    expect(Date.parse(post.last_refresh)).toBe(Date.parse(STAMP))
    // The step links carry the request's own parameters.
    const linked = Object.fromEntries(new URL(post.result[1].dropped_people_url, w.live.origin).searchParams)
    expect(linked).toEqual({ events: JSON.stringify(params.events), ...RANGE, funnel_step: '-2' })
    const get = (await w.call('GET', `${base}/funnel/?${queryOf(params)}`, 200)).body
    expect(get).toEqual(expected)
    expect(Date.parse(get.last_refresh)).toBe(Date.parse(STAMP))
  })

  test("persons/funnel: each step's links answer its persons (skipped while the route is not documented)", async (ctx) => {
    const doc = (await w.live.call('GET', '/api/schema/', { key: null })).body
    if (!doc.paths['/api/projects/{project_id}/persons/funnel/']?.get) ctx.skip()
    const params = { events: [{ id: 'walk_signup', order: 0 }, { id: 'walk_paid', order: 1 }], ...RANGE }
    const [entered, paid] = (await w.live.call('POST', `${base}/funnel/`, { body: params })).body.result
    // DECISIONS.md: a paginated list of the persons who reached the step (u1, u2, u3; then u1, u2) or dropped before it (u3).
    const persons = async (url: string) => {
      const page = (await w.call('GET', url, 200)).body
      return { ...page, results: [...page.results].sort((x: { id: string }, y: { id: string }) => (x.id < y.id ? -1 : 1)) }
    }
    const list = async (...who: Walker[]) => {
      const results = (await Promise.all(who.map((x) => analysisPerson(w, x)))).sort((x, y) => (x.id < y.id ? -1 : 1))
      return { count: results.length, next: null, previous: null, results }
    }
    expect(await persons(entered.converted_people_url)).toEqual(await list('u1', 'u2', 'u3'))
    expect(await persons(paid.converted_people_url)).toEqual(await list('u1', 'u2'))
    expect(await persons(paid.dropped_people_url)).toEqual(await list('u3'))
  })

  // Once reported divergences, now fixed: PostHog's action label, and one timestamp spelling.
  test('an action series without a name in the request is labelled by its stored name (PostHog series_event), not its id', async () => {
    const body = { actions: [{ id: paid.id, math: 'dau' }], ...RANGE }
    const [series] = (await w.call('POST', `${base}/trend/`, 200, { body })).body.result
    expect([series.label, series.action.id, series.action.name]).toEqual(['Walk paid', 'Walk paid', 'Walk paid'])
  })

  test('the funnel spells last_refresh as every other timestamp (the trend too): six fraction digits', async () => {
    const params = { events: [{ id: 'walk_signup', order: 0 }, { id: 'walk_paid', order: 1 }], ...RANGE }
    expect((await w.call('POST', `${base}/funnel/`, 200, { body: params })).body.last_refresh).toBe(STAMP)
  })

  /**
   * Interface 4.2: both take the Insight writeable fields and answer 200 with
   * an Insight-shaped object; PostHog's bodies are `{client_query_id}` and its
   * app's timing report. The answers carry Insight fields (2.3) with their
   * types: nothing computed (`result`, `last_refresh` null), the project's
   * `timezone` (UTC here), `is_cached` false.
   */
  test("cancel and timing take PostHog's bodies and the interface's, and answer Insight-shaped objects", async () => {
    const nothing = { result: null, last_refresh: null, timezone: 'UTC', is_cached: false }
    const documentBody = { name: 'Walk', derived_name: 'Walk count', filters: { insight: 'TRENDS', events: [{ id: 'walk_signup' }] }, query: { kind: 'TrendsQuery' }, order: 1, deleted: false, dashboards: [], description: 'walked', tags: ['walk'], favorited: false, saved: true }
    expect((await w.call('POST', `${base}/cancel/`, 200, { body: { client_query_id: 'walk-nothing-runs' } })).body).toEqual({ ...nothing, client_query_id: 'walk-nothing-runs', cancelled: false })
    expect((await w.call('POST', `${base}/cancel/`, 200, { body: documentBody })).body).toEqual({ ...nothing, client_query_id: null, cancelled: false })
    const report = { time_to_see_data_ms: 250, type: 'insight_load', context: 'insight', status: 'success', insight: 'TRENDS', is_primary_interaction: true }
    expect((await w.call('POST', `${base}/timing/`, 200, { body: report })).body).toEqual({ ...nothing, success: true })
    expect((await w.call('POST', `${base}/timing/`, 200, { body: documentBody })).body).toEqual({ ...nothing, success: true })
    // Neither stores anything: the project still has no insight named after the body.
    expect((await w.call('GET', `${base}/?search=Walk%20count`, 200)).body.count).toBe(0)
  })
}
