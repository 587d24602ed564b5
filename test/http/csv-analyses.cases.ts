import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { ConformanceTarget } from '../conformance/target.js'
import { type Answer, type Live, serve } from './harness.js'

const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`

/** Plans chosen to need escaping: a formula (guarded with `'`), and a comma with quotes (quoted, quotes doubled). */
const FORMULA = '=1+1'
const QUOTED = 'free, "basic"'
const plan = (value: string) => ({ plan: value, $set: { plan: value } })

/**
 * Three persons over three days (NOW is 2026-01-15 12:00 UTC):
 * p1 (pro) signs up on the 12th at 10:00 and pays at 11:00, signs up again on
 * the 13th at 10:00; p2 (`=1+1`) signs up on the 13th at 09:00 and pays on the
 * 14th at 09:00; p3 (`free, "basic"`) signs up on the 14th at 12:00 and never
 * pays. On the 14th at 15:00, p1 views a, b, c five minutes apart and p2 views
 * a, b one minute apart (one session each; every other event is alone in its
 * session, more than 30 minutes from the next).
 */
const EVENTS = [
  { uuid: uuid(1), event: 'signup', distinct_id: 'p1', timestamp: '2026-01-12T10:00:00Z', properties: plan('pro') },
  { uuid: uuid(2), event: 'paid', distinct_id: 'p1', timestamp: '2026-01-12T11:00:00Z' },
  { uuid: uuid(3), event: 'signup', distinct_id: 'p1', timestamp: '2026-01-13T10:00:00Z', properties: plan('pro') },
  { uuid: uuid(4), event: 'signup', distinct_id: 'p2', timestamp: '2026-01-13T09:00:00Z', properties: plan(FORMULA) },
  { uuid: uuid(5), event: 'paid', distinct_id: 'p2', timestamp: '2026-01-14T09:00:00Z' },
  { uuid: uuid(6), event: 'signup', distinct_id: 'p3', timestamp: '2026-01-14T12:00:00Z', properties: plan(QUOTED) },
  { uuid: uuid(7), event: 'view_a', distinct_id: 'p1', timestamp: '2026-01-14T15:00:00Z' },
  { uuid: uuid(8), event: 'view_b', distinct_id: 'p1', timestamp: '2026-01-14T15:05:00Z' },
  { uuid: uuid(9), event: 'view_c', distinct_id: 'p1', timestamp: '2026-01-14T15:10:00Z' },
  { uuid: uuid(10), event: 'view_a', distinct_id: 'p2', timestamp: '2026-01-14T15:00:00Z' },
  { uuid: uuid(11), event: 'view_b', distinct_id: 'p2', timestamp: '2026-01-14T15:01:00Z' },
]

const RANGE = { date_from: '2026-01-12', date_to: '2026-01-14' }
const DATES = '12-Jan-2026,13-Jan-2026,14-Jan-2026'
/** The cells as written: the formula guarded, the comma and quotes quoted. */
const FORMULA_CELL = `'${FORMULA}`
const QUOTED_CELL = '"free, ""basic"""'
const STEPS = [{ id: 'signup', order: 0 }, { id: 'paid', order: 1 }]

const queryOf = (params: Record<string, unknown>) =>
  new URLSearchParams(Object.entries(params).map(([k, v]): [string, string] => [k, typeof v === 'string' ? v : JSON.stringify(v)])).toString()

const csv = (...lines: string[]) => lines.map((line) => `${line}\r\n`).join('')

/**
 * `?format=csv` on every analysis endpoint, GET and POST, over a real server:
 * each table's records and columns derived by hand from EVENTS; and the 400
 * of the endpoints with nothing tabular (cancel, timing).
 */
export function csvAnalysisCases(target: ConformanceTarget): void {
  describe('analyses as CSV', () => {
    let live: Live
    let base: string

    beforeAll(async () => {
      live = await serve(target)
      base = `/api/projects/${live.a.project.id}/insights`
      const answer = await live.call('POST', '/batch/', { key: null, body: { api_key: live.a.project.apiToken, batch: EVENTS } })
      expect(answer.body).toEqual({ status: 1 })
    }, 60_000)
    afterAll(async () => {
      expect(live.serverErrors).toEqual([])
      await live.close()
    })

    /** POST with the parameters as the body and GET with them as the query agree; the CSV text, its headers checked. */
    async function both(endpoint: string, params: Record<string, unknown>, file: string): Promise<string> {
      const post = await live.call('POST', `${base}/${endpoint}/?format=csv`, { body: params })
      const get = await live.call('GET', `${base}/${endpoint}/?format=csv&${queryOf(params)}`)
      for (const answer of [post, get]) expectCsv(answer, file)
      expect(get.text).toBe(post.text)
      return post.text
    }

    function expectCsv(answer: Answer, file: string): void {
      expect(answer.status, answer.text.slice(0, 300)).toBe(200)
      expect(answer.headers.get('content-type')).toBe('text/csv; charset=utf-8')
      // PostHog's exported-asset name, `export-<name>-<computed at>`: the engine's clock is NOW.
      expect(answer.headers.get('content-disposition')).toBe(`attachment; filename="export-${file}-2026-01-15-120000.csv"`)
    }

    test('trend: a record per series, a column per day and the total; the custom name column', async () => {
      const params = { events: [{ id: 'signup', order: 0 }, { id: 'paid', order: 1, math: 'dau', custom_name: 'Payers' }], ...RANGE }
      // signup (total): p1 on the 12th; p1 and p2 on the 13th; p3 on the 14th. paid (daily persons): p1 on the 12th, p2 on the 14th.
      expect(await both('trend', params, 'trend')).toBe(csv(`series,custom name,${DATES},total`, 'signup,,1,2,1,4', 'paid,Payers,1,0,1,2'))
      // JSON stays the default, unchanged.
      const json = await live.call('POST', `${base}/trend/`, { body: params })
      expect(json.headers.get('content-type')).toBe('application/json')
      expect(json.body.result.map((s: { data: number[] }) => s.data)).toEqual([[1, 2, 1], [1, 0, 1]])
    })

    test('trend: a breakdown column, each value escaped; a total-value display has `total count`', async () => {
      const params = { events: [{ id: 'signup' }], breakdown: 'plan', breakdown_type: 'event', ...RANGE }
      const text = await both('trend', params, 'trend')
      const [header, ...records] = text.split('\r\n')
      expect(header).toBe(`series,breakdown,${DATES},total`)
      // pro: the 12th and the 13th; =1+1: the 13th; the quoted plan: the 14th. The most signups first; the tie in any order.
      expect(records[0]).toBe('pro,pro,1,1,0,2')
      expect(records.slice(1).sort()).toEqual(['', `${QUOTED_CELL},${QUOTED_CELL},0,0,1,1`, `${FORMULA_CELL},${FORMULA_CELL},0,1,0,1`].sort())

      // Persons over the whole range: signup p1, p2, p3; paid p1, p2.
      const total = { events: [{ id: 'signup', math: 'dau' }, { id: 'paid', math: 'dau', order: 1 }], display: 'ActionsTable', ...RANGE }
      expect(await both('trend', total, 'trend')).toBe(csv('series,total count', 'signup,3', 'paid,2'))
    })

    test('trend compared with the previous period: ` - current` and ` - previous`, on the current dates', async () => {
      const params = { events: [{ id: 'signup' }], compare: true, ...RANGE }
      const [header, ...records] = (await both('trend', params, 'trend')).split('\r\n')
      expect(header).toBe(`series,${DATES},total`)
      // Nothing happened from the 9th to the 11th.
      expect(records.sort()).toEqual(['', 'signup - current,1,2,1,4', 'signup - previous,0,0,0,0'])
    })

    test('stickiness and lifecycle: their own labels, the same columns', async () => {
      // Days active in the range: p1 two (12th, 13th), p2 and p3 one each.
      const stickiness = { insight: 'STICKINESS', events: [{ id: 'signup' }], ...RANGE }
      expect(await both('trend', stickiness, 'trend')).toBe(csv('series,1 day,2 days,3 days,total', 'signup,2,1,0,3'))
      // New: p1 on the 12th, p2 on the 13th, p3 on the 14th (each created by that signup); returning: p1 on the 13th;
      // dormant on the 14th: p1 and p2, active on the 13th and not the 14th (negative, as PostHog counts them).
      const lifecycle = { insight: 'LIFECYCLE', events: [{ id: 'signup' }], ...RANGE }
      expect(await both('trend', lifecycle, 'trend')).toBe(
        csv(`series,${DATES},total`, 'signup - new,1,1,1,3', 'signup - returning,0,1,0,1', 'signup - resurrecting,0,0,0,0', 'signup - dormant,0,0,-2,-2'),
      )
    })

    test('funnel steps: counts, conversion from the first and the previous step, times in seconds', async () => {
      // Entered: p1, p2, p3. Paid within 14 days: p1 after 3600 s, p2 after 86400 s: median and mean 45000.
      const params = { events: [STEPS[0], { ...STEPS[1], custom_name: 'Paying' }], ...RANGE }
      expect(await both('funnel', params, 'funnel')).toBe(
        csv(
          'name,action_id,count,conversion rate (%),conversion from previous step (%),median_conversion_time (seconds),average_conversion_time (seconds)',
          'signup,signup,3,100,,,',
          'Paying,paid,2,66.67,66.67,45000,45000',
        ),
      )
    })

    test('funnel steps by breakdown: each value’s steps together, its own conversion', async () => {
      const params = { events: STEPS, breakdown: 'plan', breakdown_type: 'event', ...RANGE }
      const [header, ...records] = (await both('funnel', params, 'funnel')).split('\r\n')
      expect(header).toBe('name,breakdown_value,action_id,count,conversion rate (%),conversion from previous step (%),median_conversion_time (seconds),average_conversion_time (seconds)')
      // pro: p1 converts in 3600 s; =1+1: p2 in 86400 s; the quoted plan: p3 drops off. Converted values rank first.
      const blocks = [0, 2, 4].map((i) => records.slice(i, i + 2))
      expect(blocks.slice(0, 2).sort()).toEqual(
        [
          ['signup,pro,signup,1,100,,,', 'paid,pro,paid,1,100,100,3600,3600'],
          [`signup,${FORMULA_CELL},signup,1,100,,,`, `paid,${FORMULA_CELL},paid,1,100,100,86400,86400`],
        ].sort(),
      )
      expect(blocks[2]).toEqual([`signup,${QUOTED_CELL},signup,1,100,,,`, `paid,${QUOTED_CELL},paid,0,0,0,,`])
      expect(records[6]).toBe('')
    })

    test('funnel trends and time to convert', async () => {
      // Entrants per day and whether they paid within the window: the 12th p1 (yes); the 13th p1 (his second
      // signup: no later payment) and p2 (yes); the 14th p3 (no).
      const trends = { events: STEPS, funnel_viz_type: 'trends', ...RANGE }
      expect(await both('funnel', trends, 'funnel')).toBe(csv(`series,${DATES}`, 'conversion rate (%),100,50,0'))
      // Samples 3600 and 86400 in 2 bins (reference §11): width ceil(82800 / 2) = 41400, starts 3600, 45000, 86400.
      const ttc = { events: STEPS, funnel_viz_type: 'time_to_convert', bin_count: 2, ...RANGE }
      expect(await both('funnel', ttc, 'funnel')).toBe(csv('bin,value', '3600,1', '45000,0', '86400,1'))
    })

    test('retention: a record per cohort, its size, a column per day; by breakdown, blocks per value', async () => {
      const params = { target_entity: { id: 'signup', type: 'events' }, returning_entity: { id: 'signup', type: 'events' }, period: 'Day', total_intervals: 3, date_to: '2026-01-14' }
      // The 12th: p1, back on the 13th. The 13th: p1 and p2, neither back on the 14th. The 14th: p3, the window's last day.
      expect(await both('retention', params, 'retention')).toBe(
        csv('cohort,cohort size,Day 0,Day 1,Day 2', '2026-01-12T00:00:00Z,1,1,1,0', '2026-01-13T00:00:00Z,2,2,0,0', '2026-01-14T00:00:00Z,1,1,0,0'),
      )
      // By the person's plan: pro (p1, two cohort entries) first, then the ties by code point: `=` before `f`.
      const byPlan = { ...params, breakdown: 'plan', breakdown_type: 'person' }
      expect(await both('retention', byPlan, 'retention')).toBe(
        csv(
          'breakdown,cohort,cohort size,Day 0,Day 1,Day 2',
          'pro,2026-01-12T00:00:00Z,1,1,1,0',
          'pro,2026-01-13T00:00:00Z,1,1,0,0',
          'pro,2026-01-14T00:00:00Z,0,0,0,0',
          `${FORMULA_CELL},2026-01-12T00:00:00Z,0,0,0,0`,
          `${FORMULA_CELL},2026-01-13T00:00:00Z,1,1,0,0`,
          `${FORMULA_CELL},2026-01-14T00:00:00Z,0,0,0,0`,
          `${QUOTED_CELL},2026-01-12T00:00:00Z,0,0,0,0`,
          `${QUOTED_CELL},2026-01-13T00:00:00Z,0,0,0,0`,
          `${QUOTED_CELL},2026-01-14T00:00:00Z,1,1,0,0`,
        ),
      )
    })

    test('paths: source, target, value and the mean time in milliseconds', async () => {
      // Sessions with more than one event: p1 a → b → c (5 min each), p2 a → b (1 min).
      const params = { include_event_types: ['custom_event'], ...RANGE }
      expect(await both('path', params, 'path')).toBe(csv('source,target,value,average_conversion_time', '1_view_a,2_view_b,2,180000', '2_view_b,3_view_c,1,300000'))
    })

    test('funnel correlation: event, type, odds ratio and the counts', async () => {
      // Converted p1 (pro), p2 (=1+1); dropped p3. S = 2, F = 1; odds (s+1)(F-f+1) / ((S-s+1)(f+1)):
      // pro and =1+1: 2·2 / (2·1) = 2 (ties by name: `=` before `p`); the quoted plan: 1·1 / (3·2).
      const params = { events: STEPS, ...RANGE, funnel_correlation_type: 'properties', funnel_correlation_names: ['plan'] }
      expect(await both('funnel/correlation', params, 'funnel-correlation')).toBe(
        csv(
          'event,correlation type,odds ratio,success count,failure count',
          `plan::${FORMULA},success,2,1,0`,
          'plan::pro,success,2,1,0',
          `"plan::${QUOTED.replaceAll('"', '""')}",failure,${1 / 6},0,1`,
        ),
      )
    })

    /**
     * A people URL of a result with `format=csv`: PostHog's exporter writes a persons list as its
     * persons (csv_exporter's "persons modal" rows), each flattened by the CSV renderer: dotted headers,
     * sorted. Each record against the same page as JSON, whose ids and creation times are the engine's;
     * a person's `$creator_event_uuid` (PostHog sets it on creation) is the uuid of its first event.
     */
    async function personsCsv(url: string, expected: Partial<Record<'p1' | 'p2' | 'p3', string>>): Promise<void> {
      const creator = { p1: uuid(1), p2: uuid(4), p3: uuid(6) } as Record<string, string>
      const path = `/${url.replace(/^\//, '')}`
      const json = await live.call('GET', path)
      const text = await live.call('GET', `${path}${path.includes('?') ? '&' : '?'}format=csv`)
      expect(text.status, text.text.slice(0, 300)).toBe(200)
      expect(text.headers.get('content-type')).toBe('text/csv; charset=utf-8')
      // The page's persons are those expected, each with its one distinct id and its plan.
      expect(json.body.results.map((p: { distinct_ids: string[] }) => p.distinct_ids[0]).sort()).toEqual(Object.keys(expected).sort())
      const records = json.body.results.map((p: { id: string; created_at: string; distinct_ids: [keyof typeof expected] }) => {
        const [id] = p.distinct_ids
        return `${p.created_at},${id},${p.id},${creator[id]},${expected[id]}`
      })
      expect(text.text).toBe(csv('created_at,distinct_ids.0,id,properties.$creator_event_uuid,properties.plan', ...records))
    }

    test('the persons behind a point as CSV: funnel steps, a trend day, a retention cohort, a path node', async () => {
      const plans = { p1: 'pro', p2: FORMULA_CELL, p3: QUOTED_CELL }
      // Funnel: p1 and p2 paid within the window (converted at the second step), p3 dropped off there.
      const funnel = await live.call('POST', `${base}/funnel/`, { body: { events: STEPS, ...RANGE } })
      await personsCsv(funnel.body.result[1].converted_people_url, { p1: plans.p1, p2: plans.p2 })
      await personsCsv(funnel.body.result[1].dropped_people_url, { p3: plans.p3 })
      // Trend: the signups of the 13th are p1's and p2's.
      const trend = await live.call('POST', `${base}/trend/`, { body: { events: [{ id: 'signup' }], ...RANGE } })
      await personsCsv(trend.body.result[0].persons_urls[1].url, { p1: plans.p1, p2: plans.p2 })
      // Retention: the cohort of the 12th is p1.
      const retention = await live.call('POST', `${base}/retention/`, {
        body: { target_entity: { id: 'signup', type: 'events' }, returning_entity: { id: 'signup', type: 'events' }, period: 'Day', total_intervals: 3, date_to: '2026-01-14' },
      })
      await personsCsv(retention.body.result[0].people_url, { p1: plans.p1 })
      // Paths: p1 and p2 start at view_a.
      await personsCsv(`api/projects/${live.a.project.id}/persons/path/?${queryOf({ include_event_types: ['custom_event'], ...RANGE, path_start_key: '1_view_a' })}`, { p1: plans.p1, p2: plans.p2 })
    })

    test('cancel and timing: 400 naming `format`, nothing done; JSON unchanged', async () => {
      for (const [path, body] of [
        ['cancel', { client_query_id: 'csv-nothing-runs' }],
        ['timing', { time_to_see_data_ms: 250, type: 'insight_load', context: 'insight', status: 'success' }],
      ] as const) {
        const refused = await live.call('POST', `${base}/${path}/?format=csv`, { body })
        expect(refused.status).toBe(400)
        expect(refused.body).toEqual({ type: 'validation_error', code: 'invalid_input', detail: expect.stringContaining('CSV is not offered here'), attr: 'format' })
        expect((await live.call('POST', `${base}/${path}/?format=json`, { body })).status).toBe(200)
      }
      // A format no endpoint offers is still DRF's 404.
      expect((await live.call('POST', `${base}/cancel/?format=xml`, { body: { client_query_id: 'x' } })).status).toBe(404)
    })
  })
}
