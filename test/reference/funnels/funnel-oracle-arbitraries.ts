/**
 * fast-check arbitraries for funnel datasets and requests, built from
 * per-person journeys around New York's spring DST change: few persons (one
 * with two distinct ids, one distinct id without a person), each walking a,
 * b, c partly (a prefix of a -> b -> c, one walk in four in another order) with
 * x and stray steps between, now and then walking again later; steps on a
 * 5-minute grid (ties, exact window boundaries), now and then one microsecond
 * later; local days that differ from UTC days; optional browsers, groups, an
 * action and a cohort. generator-shares.test.ts checks what the runs reach.
 */
import fc from 'fast-check'
import type { FunnelExampleData } from './funnel-oracle-dataset.js'
import { journeyPoints } from '../shared/journey-points.js'
import type { RefEvent, RefPerson } from '../shared/ref-dataset.js'

const DISTINCT_IDS = ['d1', 'd2', 'd3', 'd4', 'd5', 'loner'] as const
// Persons: P1 has two distinct ids; 'loner' has no person row.
const PERSONS: Record<string, RefPerson> = {
  d1: { id: 'P1', properties: { plan: 'pro' } },
  d2: { id: 'P1', properties: { plan: 'pro' } },
  d3: { id: 'P2', properties: { plan: 'free' } },
  d4: { id: 'P3', properties: {} },
  d5: { id: 'P4', properties: { plan: 'pro' } },
}
// 2024-03-10 04:00Z is 23:00 EST on the 9th; New York moves to EDT at 07:00Z, journeys start up to 4 hours later.
const BASE = Date.UTC(2024, 2, 10, 4)
/** Action 7 matches 'a' and 'c'. */
export const ACTION_ID = 7

interface Touch {
  readonly browser: string | undefined
  readonly os: string | undefined
  readonly group: string | undefined
}
const touch: fc.Arbitrary<Touch> = fc.record({
  browser: fc.constantFrom('Chrome', 'Safari', 'Firefox', undefined),
  os: fc.constantFrom('Mac', undefined),
  group: fc.constantFrom('g1', 'g2', undefined),
})

interface Step {
  readonly name: string
  /** Grid points (5 minutes) since the event before: 0 is a tie. */
  readonly gap: number
  readonly micro: number
  readonly touch: Touch | null
}
const step: fc.Arbitrary<Step> = fc.record({
  name: fc.constantFrom('a', 'b', 'c', 'x'),
  gap: fc.constantFrom(0, 0, 1, 1, 2, 3, 6),
  micro: fc.constantFrom(0, 0, 0, 1),
  // One event in four leaves the journey's browser, os and group for others.
  touch: fc.option(touch, { freq: 3 }),
})

/** `reach` steps of a -> b -> c (or another order), each followed by x or a stray step one time in three. */
const walk = fc
  .record({
    reach: fc.integer({ min: 1, max: 3 }),
    shuffled: fc.integer({ min: 0, max: 3 }).map((k) => k === 0),
    steps: fc.array(step, { minLength: 6, maxLength: 6 }),
    noise: fc.array(fc.integer({ min: 0, max: 2 }).map((k) => k === 0), { minLength: 3, maxLength: 3 }),
  })
  .map(({ reach, shuffled, steps, noise }) => {
    const path = shuffled ? steps.slice(0, reach).map((e) => e.name) : ['a', 'b', 'c'].slice(0, reach)
    return path.flatMap((name, i) => [{ ...steps[i]!, name }, ...(noise[i] ? [steps[i + 3]!] : [])])
  })

const journey = fc.record({
  distinctId: fc.constantFrom(...DISTINCT_IDS),
  start: fc.integer({ min: 0, max: 48 }),
  touch,
  walks: fc.array(walk, { minLength: 1, maxLength: 2 }),
  pause: fc.integer({ min: 1, max: 12 }),
})

/** 3 to 7 journeys: a median of 20 events, 11 to 28 in four datasets of five, at most about 45. */
export const funnelData: fc.Arbitrary<FunnelExampleData> = fc
  .tuple(fc.array(journey, { minLength: 3, maxLength: 7, size: 'max' }), fc.constantFrom('UTC', 'America/New_York'))
  .map(([journeys, timezone]) => {
    const rows = journeyPoints(journeys).map(({ journey: j, event: e, point }) => ({ distinctId: j.distinctId, name: e.name, point, micro: e.micro, touch: e.touch ?? j.touch }))
    return {
      events: rows.map((e, i): RefEvent => {
        const iso = new Date(BASE + e.point * 5 * 60_000).toISOString().replace('.000Z', '')
        return {
          uuid: `00000000-0000-4000-8000-${String(i + 1).padStart(12, '0')}`,
          event: e.name,
          distinct_id: e.distinctId,
          timestamp: `${iso}.${String(e.micro).padStart(6, '0')}Z`,
          properties: { ...(e.touch.browser ? { $browser: e.touch.browser } : {}), ...(e.touch.os ? { $os: e.touch.os } : {}) },
          ...(e.touch.group ? { groups: { 0: e.touch.group } } : {}),
        }
      }),
      persons: PERSONS,
      groups: { 0: { g1: { industry: 'finance' }, g2: { industry: 'retail' } } },
      project: { timezone, weekStartDay: 0, testAccountFilters: [] },
      now: '2024-03-20T00:00:00Z',
      actions: { [ACTION_ID]: { name: 'A or C', eventNames: ['a', 'c'] } },
      cohorts: { 1: { name: 'Early', members: ['P1', 'P3'] } },
    }
  })

/** The same datasets with no two events at one instant (event i moves i seconds later). */
export const distinctTimesData: fc.Arbitrary<FunnelExampleData> = funnelData.map((data) => ({
  ...data,
  events: data.events.map((e, i) => {
    const [whole, fraction] = e.timestamp.split('.')
    const moved = new Date(Date.parse(`${whole}Z`) + i * 1000).toISOString().slice(0, 19)
    return { ...e, timestamp: `${moved}.${fraction}` }
  }),
}))

export interface FunnelShape {
  /** Event names, or 'A7' for the action. */
  readonly steps: ReadonlyArray<string>
  readonly windowMinutes: number
  readonly order: 'ordered' | 'strict' | 'unordered'
}

export const funnelShape: fc.Arbitrary<FunnelShape> = fc.record({
  steps: fc.array(fc.constantFrom('a', 'b', 'c', 'A7'), { minLength: 2, maxLength: 3 }),
  windowMinutes: fc.integer({ min: 1, max: 90 }),
  order: fc.constantFrom('ordered' as const, 'strict' as const, 'unordered' as const),
})

export const requestOf = (shape: FunnelShape, more: Record<string, unknown> = {}): Record<string, unknown> => {
  const entities = shape.steps.map((id, order) => ({ id: id === 'A7' ? ACTION_ID : id, type: id === 'A7' ? 'actions' : 'events', order }))
  return {
    date_from: '2024-03-09',
    date_to: '2024-03-11',
    events: entities.filter((e) => e.type === 'events'),
    actions: entities.filter((e) => e.type === 'actions'),
    funnel_window_interval: shape.windowMinutes,
    funnel_window_interval_unit: 'minute',
    funnel_order_type: shape.order,
    ...more,
  }
}

/** An exclusion on 'x' (never a step event), valid for the shape (the whole funnel for unordered). */
export const exclusionFor = (shape: FunnelShape): fc.Arbitrary<Record<string, unknown>> => {
  const last = shape.steps.length - 1
  if (shape.order === 'unordered') return fc.constant({ id: 'x', type: 'events', funnel_from_step: 0, funnel_to_step: last })
  return fc
    .integer({ min: 0, max: last - 1 })
    .chain((from) => fc.integer({ min: from + 1, max: last }).map((to) => ({ id: 'x', type: 'events', funnel_from_step: from, funnel_to_step: to })))
}

/** Breakdown parameters whose values each person's first/last touch decides. */
export const touchBreakdown: fc.Arbitrary<Record<string, unknown>> = fc.constantFrom(
  { breakdown: '$browser', breakdown_type: 'event' },
  { breakdown: ['$browser', '$os'], breakdown_type: 'event' },
  { breakdown: 'plan', breakdown_type: 'person' },
  { breakdown: 'industry', breakdown_type: 'group', breakdown_group_type_index: 0 },
)

/** Any breakdown the steps view accepts, with a limit now and then, and the unboxing flag. */
export const anyBreakdown: fc.Arbitrary<Record<string, unknown>> = fc
  .tuple(
    fc.oneof(touchBreakdown, fc.constant({ breakdown: [1, 'all'], breakdown_type: 'cohort' })),
    fc.constantFrom('first_touch', 'last_touch', 'all_events', 'step'),
    fc.option(fc.integer({ min: 1, max: 3 }), { nil: undefined }),
    fc.boolean(),
  )
  .map(([b, attribution, limit, legacy]) => ({
    ...b,
    breakdown_attribution_type: attribution,
    breakdown_attribution_value: 0,
    ...(limit === undefined ? {} : { breakdown_limit: limit }),
    ...(legacy ? { insight: 'FUNNELS' } : {}),
  }))

/** The three views, trends by day and by hour. */
export const vizParams: fc.Arbitrary<Record<string, unknown>> = fc.constantFrom(
  {},
  { funnel_viz_type: 'trends' },
  { funnel_viz_type: 'trends', interval: 'hour', funnel_from_step: 1 },
  { funnel_viz_type: 'time_to_convert' },
)
