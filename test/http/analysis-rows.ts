import { expect, it } from 'vitest'
import {
  analysis,
  arr,
  arrayOf,
  type Check,
  ENTITY_FIELDS,
  envelope,
  exactly,
  fields,
  FILTER,
  FILTER_FIELDS,
  nonEmptyArrayOf,
  present,
  problems,
  PROPERTY_GROUP,
  SERIES,
  step,
  str,
} from './interface-rows.shapes.js'
import { call, get, queryOf, type Row, send } from './row.js'
import { STEPS, type State } from './rows-world.js'

/** The Insight writeable fields as the body of an analysis row that takes them. */
const DOCUMENT_BODY = { name: 'Rows analysis', derived_name: 'Rows', filters: { insight: 'FUNNELS', events: STEPS }, query: { kind: 'FunnelsQuery' }, order: 1, deleted: false, dashboards: [], description: 'd', tags: ['rows'], favorited: false, saved: false }

/** 4.2's analysis rows (4.3 funnels, 4.4 trends, correlation, paths, retention). */
export const ANALYSIS_ROWS: Row[] = [
  {
    method: 'GET', path: '/funnel/', status: 200,
    // The legacy filter as query parameters (README: GET analysis parameters); without steps it is a 400 (decisionCases).
    send: get((s) => `${s.insights}/funnel/?${queryOf({ events: STEPS })}`),
    shape: () => analysis(arr),
    csv: { kind: 'analysis', file: 'funnel', columns: ['name', 'action_id', 'count'] },
  },
  {
    method: 'POST', path: '/funnel/', status: 200,
    send: send('POST', (s) => `${s.insights}/funnel/`, () => ({ events: STEPS })),
    shape: () => analysis(both2(nonEmptyArrayOf(present), (v, at, out) => (v as unknown[]).forEach((x, i) => step(i === 0)(x, `${at}[${i}]`, out)))),
    csv: { kind: 'analysis', file: 'funnel', columns: ['name', 'action_id', 'count', 'conversion rate (%)', 'conversion from previous step (%)', 'median_conversion_time (seconds)', 'average_conversion_time (seconds)'] },
    values: async (body) => {
      // r1 and r2 entered, r1 converted; DECISIONS: `order` the step's index, `action_id` the event name.
      expect(body.result.map((x: any) => [x.order, x.action_id, x.count])).toEqual([[0, 'row_signup', 2], [1, 'row_paid', 1]])
      // DECISIONS: each people URL answers the list envelope of the persons who converted or dropped.
      const urls = body.result.flatMap((x: any) => [x.converted_people_url, x.dropped_people_url]).filter((u: unknown) => u !== null)
      expect(urls).toHaveLength(3)
      const counts = []
      for (const u of urls) {
        const persons = await call('GET', u)
        expect(persons.status, u).toBe(200)
        expect(problems(persons.body, envelope(fields({ id: str })))).toEqual([])
        counts.push(persons.body.count)
      }
      expect(counts).toEqual([2, 1, 1])
    },
  },
  {
    method: 'GET', path: '/funnel/correlation/', status: 200,
    send: get((s) => `${s.insights}/funnel/correlation/`),
    shape: () => analysis(present),
    csv: { kind: 'analysis', file: 'funnel-correlation', columns: ['event', 'correlation type', 'odds ratio', 'success count', 'failure count'] },
  },
  {
    method: 'POST', path: '/funnel/correlation/', status: 200,
    send: send('POST', (s) => `${s.insights}/funnel/correlation/`, () => DOCUMENT_BODY),
    shape: () => analysis(present),
    csv: { kind: 'analysis', file: 'funnel-correlation', columns: ['event', 'correlation type', 'odds ratio', 'success count', 'failure count'] },
  },
  {
    method: 'GET', path: '/path/', status: 200,
    send: get((s) => `${s.insights}/path/`),
    shape: () => analysis(present),
    csv: { kind: 'analysis', file: 'path', columns: ['source', 'target', 'value', 'average_conversion_time'] },
  },
  {
    method: 'POST', path: '/path/', status: 200,
    send: send('POST', (s) => `${s.insights}/path/`, () => DOCUMENT_BODY),
    shape: () => analysis(present),
    csv: { kind: 'analysis', file: 'path', columns: ['source', 'target', 'value', 'average_conversion_time'] },
  },
  {
    method: 'GET', path: '/retention/', status: 200,
    send: get((s) => `${s.insights}/retention/`),
    shape: () => analysis(present),
    csv: { kind: 'analysis', file: 'retention', columns: ['cohort', 'cohort size', 'Day 0'] },
  },
  {
    method: 'GET', path: '/trend/', status: 200,
    // The legacy filter as query parameters (README: GET analysis parameters); without series it is a 400 (decisionCases).
    send: get((s) => `${s.insights}/trend/?${queryOf({ events: [{ id: 'row_signup' }] })}`),
    shape: () => analysis(arr),
    csv: { kind: 'analysis', file: 'trend', columns: ['series', 'total'] },
  },
  {
    method: 'POST', path: '/trend/', status: 200,
    send: send('POST', (s) => `${s.insights}/trend/`, () => TREND),
    shape: () => analysis(nonEmptyArrayOf(SERIES)),
    csv: { kind: 'analysis', file: 'trend', columns: ['series', 'total', '8-Jan-2026', '15-Jan-2026'] },
    values: async (body, s) => {
      const [series] = body.result
      // 4.3 defaults: date_from -7d; DECISIONS: date_to now. Daily buckets 2026-01-08 to 2026-01-15.
      expect([series.days[0], series.days.at(-1), series.days.length, series.data.length, series.labels.length]).toEqual(['2026-01-08', '2026-01-15', 8, 8, 8])
      // One pro signup, on the 13th.
      expect(series.data).toEqual([0, 0, 0, 0, 0, 1, 0, 0])
      // Echoed as sent, with the entity's `type` (PostHog's Entity.to_dict).
      expect(series.filter.events).toEqual([{ ...TREND.events[0], type: 'events' }])
      expect(series.filter.properties).toEqual(TREND.properties)
      expect(problems(series.filter.properties, PROPERTY_GROUP)).toEqual([])
      expect(series.filter.filter_test_accounts).toBe(false)
      // 4.4 `compare`: each result for the current and the previous period, marked.
      const compared = await call('POST', `${s.insights}/trend/`, { ...TREND, compare: true })
      expect(compared.status).toBe(200)
      expect(compared.body.result.map((r: any) => [r.compare, r.compare_label]).sort()).toEqual([[true, 'current'], [true, 'previous']])
    },
  },
]

/** A trend naming every filter field 4.4 lists: an event with its properties and math, a properties group. */
const TREND = {
  events: [{ id: 'row_signup', math: 'total', properties: [{ key: 'plan', value: 'pro', operator: 'exact', type: 'event' }] }],
  properties: { type: 'AND', values: [{ key: 'plan', value: 'pro', operator: 'exact', type: 'event' }] },
  filter_test_accounts: false,
}

function both2(...checks: Check[]): Check {
  return (v, at, out) => {
    const before = out.length
    for (const c of checks) {
      c(v, at, out)
      if (out.length > before) return
    }
  }
}

/**
 * Rows of 4.4 checked beyond the main request: the filter of a request naming
 * no math or properties, and of an action (README: a trend result's filter).
 */
export function trendFilterCases(state: () => State): void {
  it('POST /trend/: the filter of a request naming no properties, math or actions holds 4.4: both lists, each element with properties and math, properties an object', async () => {
    const s = state()
    const answer = await call('POST', `${s.insights}/trend/`, { events: [{ id: 'row_signup' }] })
    expect(answer.status).toBe(200)
    const { filter } = answer.body.result[0]
    expect(problems(filter, FILTER)).toEqual([])
    // README: an unnamed math is `total` (the math used), unnamed properties [] on an element and
    // PostHog's empty PropertyGroup.to_dict(), {}, at the top; no actions asked, none echoed.
    expect([filter.events, filter.actions, filter.properties]).toEqual([[{ id: 'row_signup', type: 'events', math: 'total', properties: [] }], [], {}])
  })
  it('POST /trend/: a flat list of conditions is echoed as the AND group of them (PostHog\'s Filter.to_dict)', async () => {
    const s = state()
    const condition = { key: 'plan', value: 'pro', operator: 'exact', type: 'event' }
    const answer = await call('POST', `${s.insights}/trend/`, { events: [{ id: 'row_signup' }], properties: [condition] })
    expect(answer.status).toBe(200)
    expect(answer.body.result[0].filter.properties).toEqual({ type: 'AND', values: [condition] })
  })
  it("POST /trend/: an action's filter element is 4.4's but for `id`, the action's integer id as decided (README: a trend result's filter.actions[].id)", async () => {
    const s = state()
    const action = await s.w.sightline.actions.create(s.w.project.id, { name: 'Rows paid', steps: [{ event: 'row_paid' }] })
    const answer = await call('POST', `${s.insights}/trend/`, { actions: [{ id: action.id, math: 'total', properties: [] }] })
    expect(answer.status).toBe(200)
    const { filter } = answer.body.result[0]
    // Every documented field, with `id` held to the decision instead of 4.4's string.
    expect(problems(filter, fields({ ...FILTER_FIELDS, actions: arrayOf(fields({ ...ENTITY_FIELDS, id: exactly(action.id) })) }))).toEqual([])
    expect([filter.actions, filter.events]).toEqual([[{ id: action.id, type: 'actions', math: 'total', properties: [] }], []])
  })
}

/** Where the http-adapter README's table decides against the document's letter: checked as decided. */
export function analysisDecisionCases(state: () => State): void {
  it('GET /trend/ and /funnel/ with no series: 400 naming events (README: analyses with no series)', async () => {
    const s = state()
    for (const analysis of ['trend', 'funnel']) {
      const answer = await call('GET', `${s.insights}/${analysis}/`)
      expect(answer.status, analysis).toBe(400)
      expect(answer.body, analysis).toMatchObject({ type: 'validation_error', attr: 'events' })
    }
  })
}
