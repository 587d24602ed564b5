/**
 * Where the reference evaluator and Sightline read PostHog differently
 * (test/trends/README.md), Sightline's reading, derived by hand, on every
 * target. Each `why` says which PostHog code or reference section decides.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { analysisTargets, describePropertySkip } from '../filters/filter-db.js'
import { ev, personsOf, UTC, type TrendExample } from '../reference/trends/trend-example-data.js'
import { toRefDataset, trendMismatches } from '../reference/trends/trend-examples.js'
import { openTrendEngine, type TrendEngine } from './support/engine.js'
import { loadTrendData } from './support/load.js'

const NOW = '2024-01-10T12:00:00Z'
const OTHER = '$$_posthog_breakdown_other_$$'
const NULL_VALUE = '$$_posthog_breakdown_null_$$'
const JAN_1_2 = { date_from: '2024-01-01', date_to: '2024-01-02' }

const READINGS: ReadonlyArray<TrendExample> = [
  {
    name: 'breakdown limit: null ranks after every real value before the cut',
    data: {
      project: UTC,
      now: NOW,
      persons: {},
      events: [
        ev('$pageview', 'u1', '2024-01-01T10:00:00Z', { $browser: 'Chrome' }),
        ev('$pageview', 'u1', '2024-01-01T11:00:00Z', { $browser: 'Chrome' }),
        ev('$pageview', 'u1', '2024-01-02T10:00:00Z', { $browser: 'Chrome' }),
        ev('$pageview', 'u2', '2024-01-01T10:00:00Z'),
        ev('$pageview', 'u2', '2024-01-02T10:00:00Z', { $browser: '' }),
        ev('$pageview', 'u3', '2024-01-01T10:00:00Z', { $browser: 'Safari' }),
        ev('$pageview', 'u4', '2024-01-02T10:00:00Z', { $browser: 'Firefox' }),
      ],
    },
    params: { events: [{ id: '$pageview' }], ...JAN_1_2, breakdown: '$browser', breakdown_limit: 2 },
    expected: [
      { breakdown_value: 'Chrome', data: [2, 1] },
      { breakdown_value: 'Firefox', data: [0, 1] },
      { breakdown_value: OTHER, data: [2, 1] },
    ],
    why: "PostHog's trends query builder orders rows by (Other ? 2 : null ? 1 : 0, sum desc, value asc) and folds rows from `row_number >= breakdown_limit` (reference §7.4's order): Chrome (3), Firefox and Safari (1 each, Firefox first by value), then null (2). Kept: Chrome, Firefox; Safari and null fold into Other: [1 + 1, 1].",
  },
  {
    name: 'cumulative weekly_active is a running sum of the daily values',
    data: {
      project: UTC,
      now: NOW,
      persons: personsOf({ p1: [['u1']] }),
      events: [ev('$pageview', 'u1', '2024-01-01T10:00:00Z'), ev('$pageview', 'u1', '2024-01-03T10:00:00Z')],
    },
    params: { events: [{ id: '$pageview', math: 'weekly_active' }], date_from: '2024-01-01', date_to: '2024-01-03', display: 'ActionsLineGraphCumulative' },
    expected: [{ data: [1, 2, 3], count: 3 }],
    why: "Weekly active per day is 1, 1, 1 (p1 is in each 7-day window). PostHog counts each actor once only for `dau` and `unique_group` (trends_query_builder: `math == 'unique_group' or math == 'dau'`; reference §5 names exactly those two); every other math accumulates.",
  },
  {
    name: 'formula with a breakdown: equal totals order by data, then value, descending',
    data: {
      project: UTC,
      now: NOW,
      persons: {},
      events: [
        ev('$pageview', 'u1', '2024-01-01T10:00:00Z', { $browser: 'Chrome' }),
        ev('$pageview', 'u2', '2024-01-01T10:00:00Z', { $browser: 'Safari' }),
        ev('$pageview', 'u3', '2024-01-02T10:00:00Z', { $browser: 'Edge' }),
      ],
    },
    params: { events: [{ id: '$pageview' }], ...JAN_1_2, breakdown: '$browser', formula: 'A * 2' },
    expected: [
      { breakdown_value: 'Safari', data: [2, 0] },
      { breakdown_value: 'Chrome', data: [2, 0] },
      { breakdown_value: 'Edge', data: [0, 2] },
    ],
    why: "apply_formula sorts rows by (null/Other bucket, total, count, data, repr(value)) with reverse=True: all totals are 2; data [2, 0] > [0, 2] puts Edge last; Safari and Chrome tie on data, and 'Safari' > 'Chrome' descending.",
  },
  {
    name: 'unique_group with a breakdown: events without the group make no row',
    data: {
      project: UTC,
      now: NOW,
      persons: {},
      events: [
        ev('$pageview', 'u1', '2024-01-01T10:00:00Z', { $browser: 'Chrome' }, { 0: 'g1' }),
        ev('$pageview', 'u2', '2024-01-01T11:00:00Z', { $browser: 'Safari' }),
      ],
    },
    params: { events: [{ id: '$pageview', math: 'unique_group', math_group_type_index: 0 }], date_from: '2024-01-01', date_to: '2024-01-01', breakdown: '$browser' },
    expected: [{ breakdown_value: 'Chrome', data: [1] }],
    why: "PostHog's events filter adds `$group_0 != ''` for unique_group (reference §5: events without the group are ignored), so the Safari event never reaches the breakdown.",
  },
  {
    name: 'null with a breakdown limit in a total-value display: null competes on its total',
    data: {
      project: UTC,
      now: NOW,
      persons: personsOf({ p1: [['u1']], p2: [['u2']], p3: [['u3']] }),
      events: [
        ev('$pageview', 'u1', '2024-01-01T10:00:00Z', { $browser: 'Chrome' }),
        ev('$pageview', 'u2', '2024-01-01T10:00:00Z'),
        ev('$pageview', 'u3', '2024-01-01T10:00:00Z'),
      ],
    },
    params: { events: [{ id: '$pageview', math: 'dau' }], date_from: '2024-01-01', date_to: '2024-01-01', breakdown: '$browser', breakdown_limit: 1, display: 'ActionsTable' },
    expected: [
      { breakdown_value: NULL_VALUE, aggregated_value: 2 },
      { breakdown_value: OTHER, aggregated_value: 1 },
    ],
    why: "PostHog's total-value query cuts by row_number() OVER (ORDER BY total DESC) alone (trends_query_builder.py, _total_value_by_breakdown_query): null (2 persons) takes the one slot, Chrome (1) folds into Other.",
  },
]

describePropertySkip()
for (const target of analysisTargets) {
  describe(target.name, () => {
    let engine: TrendEngine
    let now = new Date(NOW)
    beforeAll(async () => {
      engine = await openTrendEngine(target, () => now)
    })
    afterAll(async () => engine?.close())

    for (const reading of READINGS) {
      test(reading.name, async () => {
        now = new Date(reading.data.now)
        const projectId = await loadTrendData(engine, toRefDataset(reading.data))
        const response = await engine.sightline.query.trend(projectId, reading.params)
        expect(trendMismatches(response.result, reading.expected), reading.why).toEqual([])
      })
    }
  })
}
