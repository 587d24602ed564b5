import fc from 'fast-check'
import type { FunnelExampleData } from './funnel-dataset.js'
import type { RefEvent } from '../shared/ref-dataset.js'

/**
 * Random small funnels for the reference's invariants: a handful of persons
 * (some with two distinct ids, one without a person row), events a/b/c/x in
 * one hour with many shared timestamps, a browser and a small number as
 * properties, companies as group 0.
 */

const DISTINCT_IDS = ['d1', 'd2', 'd3', 'd4', 'd5', 'anon']
const PERSONS = {
  d1: { id: 'P1', properties: { plan: 'pro' } },
  d2: { id: 'P1', properties: { plan: 'pro' } },
  d3: { id: 'P2', properties: { plan: 'free' } },
  d4: { id: 'P3', properties: {} },
  d5: { id: 'P4', properties: { plan: 'free' } },
}
const BASE = Date.UTC(2024, 2, 5, 10)

const eventArb = fc.record({
  distinct: fc.constantFrom(...DISTINCT_IDS),
  name: fc.constantFrom('a', 'b', 'c', 'x'),
  minute: fc.integer({ min: 0, max: 30 }),
  browser: fc.constantFrom('Chrome', 'Safari', undefined),
  n: fc.constantFrom(0, 1, 2),
  company: fc.constantFrom('acme', 'beta', undefined),
})

export const datasetArb: fc.Arbitrary<FunnelExampleData> = fc.array(eventArb, { minLength: 0, maxLength: 40, size: 'large' }).map((rows) => ({
  events: rows.map(
    (r, i): RefEvent => ({
      uuid: `00000000-0000-4000-8000-${String(i + 1).padStart(12, '0')}`,
      event: r.name,
      distinct_id: r.distinct,
      timestamp: new Date(BASE + r.minute * 60_000).toISOString(),
      properties: r.browser === undefined ? { n: r.n } : { n: r.n, $browser: r.browser },
      ...(r.company ? { groups: { 0: r.company } } : {}),
    }),
  ),
  persons: PERSONS,
  groups: { 0: { acme: { industry: 'finance' }, beta: { industry: 'retail' } } },
  project: { timezone: 'UTC', weekStartDay: 0, testAccountFilters: [] },
  now: '2024-03-20T12:00:00Z',
}))

const stepArb = fc.record({
  id: fc.constantFrom<string | null>('a', 'b', 'c', 'a', 'b', null),
  filtered: fc.integer({ min: 0, max: 4 }).map((k) => k === 0),
})

/** Steps view parameters without exclusions or breakdown: 2..4 steps from a, b, c and "All events", sometimes filtered on n = 1. */
export const funnelParamsArb = fc.record({
  steps: fc.oneof(fc.array(stepArb, { minLength: 2, maxLength: 3 }), fc.array(stepArb, { minLength: 2, maxLength: 4 })),
  order: fc.constantFrom('ordered', 'strict', 'unordered'),
  window: fc.integer({ min: 1, max: 45 }),
  group: fc.integer({ min: 0, max: 3 }).map((k) => k === 0),
}).map(({ steps, order, window, group }) => ({
  date_from: '2024-03-01',
  date_to: '2024-03-15',
  events: steps.map((s, i) => ({ id: s.id, order: i, ...(s.filtered ? { properties: [{ key: 'n', value: 1 }] } : {}) })),
  funnel_order_type: order,
  funnel_window_interval: window,
  funnel_window_interval_unit: 'minute',
  ...(group ? { aggregation_group_type_index: 0 } : {}),
}))

/** An exclusion on x (never a step) over a valid range of a funnel of `n` steps; the whole funnel for unordered ones. */
export const exclusionArb = (n: number, unordered: boolean) =>
  unordered
    ? fc.constant({ id: 'x', funnel_from_step: 0, funnel_to_step: n - 1 })
    : fc
        .integer({ min: 0, max: n - 2 })
        .chain((from) => fc.integer({ min: from + 1, max: n - 1 }).map((to) => ({ id: 'x', funnel_from_step: from, funnel_to_step: to })))

export const breakdownArb = fc.constantFrom(
  { breakdown: '$browser', breakdown_type: 'event' },
  { breakdown: 'plan', breakdown_type: 'person' },
  { breakdown: ['$browser', 'n'], breakdown_type: 'event' },
  { breakdown: 'industry', breakdown_type: 'group', breakdown_group_type_index: 0 },
)

/**
 * The same datasets with no two events at one instant (event i moves i
 * seconds later). Strict funnels need it for the exclusion invariant: a
 * same-instant group with different flags drops exclusion codes and skips the
 * strict reset (funnels.md §3-4), so there an exclusion event can stop
 * breaking a chain and raise a count.
 */
export const distinctTimesDatasetArb: fc.Arbitrary<FunnelExampleData> = datasetArb.map((data) => ({
  ...data,
  events: data.events.map((e, i) => ({ ...e, timestamp: new Date(Date.parse(e.timestamp) + i * 1000).toISOString() })),
}))
