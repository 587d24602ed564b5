/**
 * Random funnels for the reference property, built from per-person
 * journeys: a handful of persons (one with two distinct ids, one distinct id
 * without a person), each walking a, b, c partly (a prefix of a -> b -> c, now
 * and then in another order), with x (the exclusion) and stray events between,
 * some walking again later (returns), some steps at the instant of the one
 * before (ties) and gaps up to a few grid points (exact window edges); a browser
 * per journey that an event changes now and then, an os, a small number,
 * companies as group 0, an action and two cohorts. Requests with 2-4 steps
 * (events, "All events", the action, step filters), every order type, windows
 * in minutes, exclusions on x, every breakdown type and attribution, group
 * aggregation. generator-shares.test.ts checks what the runs reach.
 */
import fc from 'fast-check'
import type { FunnelExampleData } from '../../reference/funnels/funnel-dataset.js'
import type { RefEvent, RefPerson } from '../../reference/shared/ref-dataset.js'
import { journeyPoints } from '../../reference/shared/journey-points.js'

const DISTINCT_IDS = ['d1', 'd2', 'd3', 'd4', 'd5', 'loner'] as const
const PERSONS: Record<string, RefPerson> = {
  d1: { id: 'P1', properties: { plan: 'pro' } },
  d2: { id: 'P1', properties: { plan: 'pro' } },
  d3: { id: 'P2', properties: { plan: 'free' } },
  d4: { id: 'P3', properties: {} },
  d5: { id: 'P4', properties: { plan: 'free' } },
}
const BASE = Date.UTC(2024, 2, 5, 10)
export const ACTION_ID = 7

interface Touch {
  readonly browser: string | undefined
  readonly os: string | undefined
  readonly company: string | undefined
}
interface WalkEvent {
  readonly name: string
  readonly gap: number
  readonly n: number
  readonly touch: Touch | null
}

const touchArb: fc.Arbitrary<Touch> = fc.record({
  browser: fc.constantFrom('Chrome', 'Safari', undefined),
  os: fc.constantFrom('Mac', undefined),
  company: fc.constantFrom('acme', 'beta', undefined),
})

/** One event of a walk: its name, the grid points since the one before (0: a tie), what it carries. */
const stepEventOf = (gaps: ReadonlyArray<number>): fc.Arbitrary<WalkEvent> => fc.record({
  name: fc.constantFrom('a', 'b', 'c', 'x'),
  gap: fc.constantFrom(...gaps),
  n: fc.constantFrom(0, 1, 1, 2),
  // One event in four leaves the journey's browser and os for others.
  touch: fc.option(touchArb, { freq: 3 }),
})

/**
 * A walk: `reach` steps of a -> b -> c (one walk in four shuffled), each
 * followed by an event of `noise` (x or a stray step) one time in three.
 */
const walkOf = (gaps: ReadonlyArray<number>) => fc
  .record({
    reach: fc.integer({ min: 1, max: 3 }),
    shuffled: fc.integer({ min: 0, max: 3 }).map((k) => k === 0),
    events: fc.array(stepEventOf(gaps), { minLength: 6, maxLength: 6 }),
    noise: fc.array(fc.integer({ min: 0, max: 2 }).map((k) => k === 0), { minLength: 3, maxLength: 3 }),
  })
  .map(({ reach, shuffled, events, noise }) => {
    const path = shuffled ? events.slice(0, reach).map((e) => e.name) : ['a', 'b', 'c'].slice(0, reach)
    const out: WalkEvent[] = []
    path.forEach((name, i) => {
      out.push({ ...events[i]!, name })
      if (noise[i]) out.push(events[i + 3]!)
    })
    return out
  })

const journeyOf = (gaps: ReadonlyArray<number>) =>
  fc.record({
    distinct: fc.constantFrom(...DISTINCT_IDS),
    start: fc.integer({ min: 0, max: 30 }),
    touch: touchArb,
    // A return: a second walk, up to 20 grid points after the first ends.
    walks: fc.array(walkOf(gaps), { minLength: 1, maxLength: 2 }),
    pause: fc.integer({ min: 1, max: 20 }),
  })

/** Where and how the grid lies: its first point, the zone, the gaps (in grid points) a walk takes between steps. */
export interface Grid {
  readonly base: number
  readonly timezone: string
  readonly gaps: ReadonlyArray<number>
}
const MINUTES: Grid = { base: BASE, timezone: 'UTC', gaps: [0, 0, 1, 1, 2, 3, 5] }

/**
 * Datasets in the worked examples' plain form, 4 to 9 journeys (a median of
 * 25 events, 15 to 37 in four datasets of five, at most about 50); uuids increase with the event's position. Grid points are
 * `spacing` minutes apart (trends spread them over several hourly periods).
 */
export const datasetOf = (spacing: number, grid: Grid = MINUTES): fc.Arbitrary<FunnelExampleData> =>
  fc.array(journeyOf(grid.gaps), { minLength: 4, maxLength: 9, size: 'max' }).map((journeys) => {
    const rows = journeyPoints(journeys).map(({ journey: j, event: e, point }) => ({ distinct: j.distinct, name: e.name, point, n: e.n, touch: e.touch ?? j.touch }))
    return {
      events: rows.map(
        (r, i): RefEvent => ({
          uuid: `00000000-0000-4000-8000-${String(i + 1).padStart(12, '0')}`,
          event: r.name,
          distinct_id: r.distinct,
          timestamp: new Date(grid.base + r.point * spacing * 60_000).toISOString(),
          properties: { n: r.n, ...(r.touch.browser ? { $browser: r.touch.browser } : {}), ...(r.touch.os ? { $os: r.touch.os } : {}) },
          ...(r.touch.company ? { groups: { 0: r.touch.company } } : {}),
        }),
      ),
      persons: PERSONS,
      groups: { 0: { acme: { industry: 'finance' }, beta: { industry: 'retail' } } },
      project: { timezone: grid.timezone, weekStartDay: 0, testAccountFilters: [] },
      now: '2024-03-20T12:00:00Z',
      actions: { [ACTION_ID]: { name: 'A or C', eventNames: ['a', 'c'] } },
      cohorts: { 1: { name: 'Pro', personIds: ['P1'] }, 2: { name: 'Others', personIds: ['P2', 'P3'] } },
    }
  })

export const datasetArb = datasetOf(1)

/**
 * Around New York's spring change (2024-03-10 07:00Z): an hourly grid from
 * 2024-03-08 12:00Z (07:00 EST), steps an hour, most of a day, a day, a day
 * and an hour or a week apart, so that windows of days and weeks end on both
 * sides of the change and exactly at it.
 */
export const dstDatasetArb = datasetOf(60, { base: Date.UTC(2024, 2, 8, 12), timezone: 'America/New_York', gaps: [0, 1, 1, 5, 23, 24, 24, 25, 47, 168] })

/** The same datasets with no two events at one instant (event i moves i seconds later). */
export const distinctTimesArb: fc.Arbitrary<FunnelExampleData> = datasetArb.map((data) => ({
  ...data,
  events: data.events.map((e, i) => ({ ...e, timestamp: new Date(Date.parse(e.timestamp) + i * 1000).toISOString() })),
}))

const stepArb = fc.record({
  id: fc.constantFrom<string | number | null>('a', 'b', 'c', 'a', 'b', null, ACTION_ID),
  filtered: fc.integer({ min: 0, max: 4 }).map((k) => k === 0),
  // The first-time step maths on one step in eight each.
  math: fc.integer({ min: 0, max: 7 }).map((k) => (k === 0 ? 'first_time_for_user' : k === 1 ? 'first_time_for_user_with_filters' : undefined)),
})
/**
 * Steps whose entities are identical or disjoint, for invariants that hold
 * only then: an unordered funnel files an event matching steps of different
 * entities greedily under one of them, and a wider window can lose a step
 * (funnels.md §5; worked example 'unordered, greedy filing (2/2)').
 */
const disjointStepArb = fc.record({ id: fc.constantFrom<string | number | null>('a', 'b', 'c'), filtered: fc.constant(false), math: fc.constant(undefined) })

const breakdownArb = fc.constantFrom<Record<string, unknown>>(
  { breakdown: '$browser', breakdown_type: 'event' },
  { breakdown: 'plan', breakdown_type: 'person' },
  { breakdown: ['$browser', '$os'], breakdown_type: 'event' },
  { breakdown: 'industry', breakdown_type: 'group', breakdown_group_type_index: 0 },
  { breakdown: [1, 2, 'all'], breakdown_type: 'cohort' },
)

export type Order = 'ordered' | 'strict' | 'unordered'

/** A step's filter on n = 1 and its first-time math, as the request writes them. */
const stepExtras = (s: { readonly filtered: boolean; readonly math?: string | undefined }) => ({
  ...(s.filtered ? { properties: [{ key: 'n', value: 1 }] } : {}),
  ...(s.math ? { math: s.math } : {}),
})

/** A funnel request over the datasets above, of the given order types. */
export const paramsArb = (orders: ReadonlyArray<Order>, options: { readonly disjointSteps?: boolean } = {}) =>
  fc
    .record({
      steps: fc.array(options.disjointSteps ? disjointStepArb : stepArb, { minLength: 2, maxLength: 4 }),
      order: fc.constantFrom(...orders),
      window: fc.integer({ min: 1, max: 45 }),
      group: fc.integer({ min: 0, max: 4 }).map((k) => k === 0),
      exclusion: fc.option(fc.tuple(fc.nat(), fc.nat()), { freq: 2 }),
      breakdown: fc.option(breakdownArb, { freq: 2 }),
      attribution: fc.constantFrom('first_touch', 'last_touch', 'all_events', 'step'),
      attributionStep: fc.nat(),
      limit: fc.constantFrom(undefined, 1, 2),
    })
    .map((r) => {
      const n = r.steps.length
      const params: Record<string, unknown> = {
        date_from: '2024-03-01',
        date_to: '2024-03-15',
        events: r.steps.flatMap((s, i) => (s.id === ACTION_ID ? [] : [{ id: s.id, order: i, ...stepExtras(s) }])),
        actions: r.steps.flatMap((s, i) => (s.id === ACTION_ID ? [{ id: ACTION_ID, type: 'actions', order: i, ...stepExtras(s) }] : [])),
        funnel_order_type: r.order,
        funnel_window_interval: r.window,
        funnel_window_interval_unit: 'minute',
      }
      if (r.group) params.aggregation_group_type_index = 0
      if (r.exclusion) {
        const [a, b] = r.exclusion
        const from = r.order === 'unordered' ? 0 : a % (n - 1)
        const to = r.order === 'unordered' ? n - 1 : from + 1 + (b % (n - 1 - from))
        params.exclusions = [{ id: 'x', type: 'events', funnel_from_step: from, funnel_to_step: to }]
      }
      if (r.breakdown) {
        Object.assign(params, r.breakdown)
        if (r.limit !== undefined) params.breakdown_limit = r.limit
        if (r.breakdown.breakdown_type !== 'cohort') {
          params.breakdown_attribution_type = r.attribution
          if (r.attribution === 'step') params.breakdown_attribution_value = r.order === 'unordered' ? 0 : r.attributionStep % n
        }
      }
      return params
    })

/** Funnel trends over hourly periods: the steps requests above, cut between random steps. */
export const trendParamsArb = (orders: ReadonlyArray<Order>, options: { readonly disjointSteps?: boolean } = {}) =>
  fc.tuple(paramsArb(orders, options), fc.nat(), fc.nat()).map(([params, a, b]) => {
    const n = (params.events as unknown[]).length + (params.actions as unknown[]).length
    const from = a % (n - 1)
    const to = from + 1 + (b % (n - 1 - from))
    return { ...params, funnel_viz_type: 'trends', interval: 'hour', date_from: '2024-03-05T08:00:00', date_to: '2024-03-05T16:00:00', funnel_from_step: from, funnel_to_step: to }
  })

/** Every view and order type the reference models, over one dataset: 3-minute grid, 10:00 to 12:00. */
export const requestArb = fc.oneof(
  { arbitrary: paramsArb(['ordered', 'strict']), weight: 3 },
  // Unordered steps overlap too ("All events", the action, a filtered step next to its event): the greedy filing.
  { arbitrary: paramsArb(['unordered']), weight: 2 },
  { arbitrary: trendParamsArb(['ordered', 'strict']), weight: 2 },
  { arbitrary: trendParamsArb(['unordered']), weight: 1 },
  { arbitrary: paramsArb(['ordered', 'strict', 'unordered']).map((p) => ({ ...p, funnel_viz_type: 'time_to_convert' })), weight: 1 },
)

/** Windows of 1 to 3 days or 1 to 2 weeks: across New York's change, a day is 23 hours of UTC. */
const dayWindowArb = fc.oneof(
  { arbitrary: fc.record({ funnel_window_interval: fc.integer({ min: 1, max: 3 }), funnel_window_interval_unit: fc.constant('day') }), weight: 3 },
  { arbitrary: fc.record({ funnel_window_interval: fc.integer({ min: 1, max: 2 }), funnel_window_interval_unit: fc.constant('week') }), weight: 1 },
)

/** The requests of `requestArb` over dstDatasetArb: windows in days and weeks, trends by day in New York's days. */
export const dstRequestArb = fc.tuple(requestArb, dayWindowArb).map(([params, window]) => ({
  ...params,
  ...window,
  ...(params.funnel_viz_type === 'trends' ? { interval: 'day', date_from: '2024-03-07', date_to: '2024-03-18' } : {}),
}))
