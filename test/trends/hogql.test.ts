/**
 * HogQL in trends, derived by hand, on every target: `math: "hogql"` reads
 * the aggregate of `math_hogql` (count, sum, avg, min, max, median,
 * quantile, count distinct) over an expression of the HogQL subset, and
 * `breakdown_type: "hogql"` breaks down by an expression's text.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { analysisTargets, describePropertySkip } from '../filters/filter-db.js'
import { ev, personsOf, UTC } from '../reference/trends/trend-example-data.js'
import { toRefDataset, trendMismatches } from '../reference/trends/trend-examples.js'
import { openTrendEngine, type TrendEngine } from './support/engine.js'
import { loadTrendData } from './support/load.js'

const NOW = '2024-01-10T12:00:00Z'
const DAYS = { date_from: '2024-01-01', date_to: '2024-01-02' }
const data = toRefDataset({
  project: UTC,
  now: NOW,
  // u1 is p1 (plan pro), u2 is p2 (plan free): read by person.properties; the cases reading event properties ignore them.
  persons: personsOf({ p1: [['u1'], { plan: 'pro' }], p2: [['u2'], { plan: 'free' }] }),
  events: [
    ev('$pageview', 'u1', '2024-01-01T10:00:00Z', { amount: 3, $browser: 'Chrome' }),
    ev('$pageview', 'u1', '2024-01-01T11:00:00Z', { amount: '4.5', $browser: 'Chrome' }),
    ev('$pageview', 'u2', '2024-01-01T12:00:00Z', { amount: 'n/a', $browser: 'Safari' }),
    ev('$pageview', 'u2', '2024-01-02T10:00:00Z', { amount: 10, $browser: 'chrome' }),
  ],
})

const CASES: ReadonlyArray<{ name: string; params: Record<string, unknown>; expected: Array<Record<string, unknown>>; why: string }> = [
  {
    name: 'count() is the number of events',
    params: { events: [{ id: '$pageview', math: 'hogql', math_hogql: 'count()' }], ...DAYS },
    expected: [{ data: [3, 1] }],
    why: 'three events on the 1st, one on the 2nd',
  },
  {
    name: 'sum, avg, min, max, median and quantile of a property read as a number; non-numbers ignored',
    params: {
      events: ['sum', 'avg', 'min', 'max', 'median'].map((f) => ({ id: '$pageview', math: 'hogql', math_hogql: `${f}(properties.amount)` })).concat([{ id: '$pageview', math: 'hogql', math_hogql: 'quantile(0.25)(properties.amount * 2)' }]),
      ...DAYS,
    },
    expected: [{ data: [7.5, 10] }, { data: [3.75, 10] }, { data: [3, 10] }, { data: [4.5, 10] }, { data: [3.75, 10] }, { data: [6.75, 20] }],
    why: 'the 1st reads 3 and 4.5 ("n/a" is no number): sum 7.5, avg and median 3.75, min 3, max 4.5; doubled, 6 and 9, whose 0.25 quantile is 6 + 0.25 * 3 = 6.75; the 2nd reads 10',
  },
  {
    name: 'count(distinct x) and count(x) ignore nulls',
    params: { events: [{ id: '$pageview', math: 'hogql', math_hogql: 'count(distinct lower(properties.$browser))' }, { id: '$pageview', math: 'hogql', math_hogql: 'count(toFloat(properties.amount))' }], ...DAYS },
    expected: [{ data: [2, 1] }, { data: [2, 1] }],
    why: 'lower-cased browsers on the 1st: chrome, safari; toFloat of "n/a" is null',
  },
  {
    // A count-like math reads no person by itself; the series keeps the person join because the math is HogQL (series-scope.ts).
    name: 'an aggregate of person properties: count(distinct person.properties.plan)',
    params: { events: [{ id: '$pageview', math: 'hogql', math_hogql: 'count(distinct person.properties.plan)' }], ...DAYS },
    expected: [{ data: [2, 1] }],
    why: 'the 1st: u1 (pro) and u2 (free), two plans; the 2nd: u2 only (free)',
  },
  {
    // A count reads no person: a global HogQL filter alone must keep the person join (series-scope.ts, readsPersons).
    name: 'a global HogQL filter over person properties',
    params: { events: [{ id: '$pageview' }], properties: [{ type: 'hogql', key: "person.properties.plan = 'pro'" }], ...DAYS },
    expected: [{ data: [2, 0] }],
    why: 'u1 (p1) is on plan pro: its two page views, both on the 1st',
  },
  {
    name: 'a HogQL breakdown: the expression as text, null when null',
    params: { events: [{ id: '$pageview' }], ...DAYS, breakdown: "concat(lower(properties.$browser), '!')", breakdown_type: 'hogql' },
    expected: [
      { breakdown_value: 'chrome!', data: [2, 1] },
      { breakdown_value: 'safari!', data: [1, 0] },
    ],
    why: 'Chrome, Chrome and chrome give chrome! (3); Safari gives safari! (1)',
  },
  {
    name: 'a HogQL breakdown of numbers prints them as PostHog toString does',
    params: { events: [{ id: '$pageview' }], ...DAYS, breakdown: 'toFloat(properties.amount) * 2', breakdown_type: 'hogql' },
    expected: [
      { breakdown_value: '20', data: [0, 1] },
      { breakdown_value: '6', data: [1, 0] },
      { breakdown_value: '9', data: [1, 0] },
      { breakdown_value: '$$_posthog_breakdown_null_$$', data: [1, 0] },
    ],
    why: '3, 4.5 and 10 doubled are 6, 9 and 20 (integers without .0); "n/a" is null. Equal totals order by value ascending: "20" < "6" < "9" as text; null last',
  },
]

describePropertySkip()
for (const target of analysisTargets) {
  describe(target.name, () => {
    let engine: TrendEngine
    let projectId: number
    beforeAll(async () => {
      engine = await openTrendEngine(target, () => new Date(NOW))
      projectId = await loadTrendData(engine, data)
    })
    afterAll(async () => engine?.close())

    for (const c of CASES) {
      test(c.name, async () => {
        const response = await engine.sightline.query.trend(projectId, c.params)
        expect(trendMismatches(response.result, c.expected), `${c.why}\n${JSON.stringify(response.result.map((r) => (r as { data: unknown }).data))}`).toEqual([])
      })
    }
  })
}
