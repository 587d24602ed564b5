/**
 * Random small datasets and correlation requests for the reference
 * property. Events carry only properties ingestion does not copy onto
 * persons, so stored persons keep exactly their given properties; the distinct
 * id without a person (`loner`) sends personless events and has none. Requests: 2-3 steps
 * (events, "All events", an action; unordered ones single events), every order type, minute windows,
 * group aggregation or aggregation by an event property (`funnel_aggregate_by_hogql`), each correlation type with random names and exclusions;
 * no funnel exclusions (see correlation-reference.ts, reading 1).
 */
import fc from 'fast-check'
import type { CorrelationData } from '../../reference/correlation/correlation-reference.js'
import type { RefEvent, RefPerson } from '../../reference/shared/ref-dataset.js'

// Twelve persons (one with two distinct ids), so that funnels have converters and droppers to compare.
const PERSON_IDS = Array.from({ length: 12 }, (_, i) => `d${i + 1}`)
const DISTINCT_IDS = [...PERSON_IDS, 'd1b', 'loner'] as const
const PERSONS: Record<string, RefPerson> = Object.fromEntries(
  PERSON_IDS.map((d, i) => [d, { id: `P${i + 1}`, properties: { plan: i % 3 === 0 ? 'free' : 'pro', ...(i % 4 === 0 ? {} : { age: 30 + (i % 2) }), ...(i === 5 ? { vip: true } : {}) } }]),
)
PERSONS.d1b = PERSONS.d1!
const BASE = Date.UTC(2024, 2, 5, 10)
const ACTION_ID = 7
const NAMES = ['a', 'b', 'c', 'x', 'y'] as const

const eventArb = fc.record({
  distinct: fc.constantFrom(...DISTINCT_IDS),
  name: fc.constantFrom('a', 'a', 'b', 'b', 'c', 'x', 'x', 'y'),
  minute: fc.integer({ min: 0, max: 30 }),
  src: fc.constantFrom('fb', 'mail', undefined),
  n: fc.constantFrom(0, 1, null),
  company: fc.constantFrom('acme', 'beta', undefined),
})

export const datasetArb: fc.Arbitrary<CorrelationData> = fc.array(eventArb, { minLength: 40, maxLength: 80 }).map((rows) => ({
  events: rows.map(
    (r, i): RefEvent => ({
      uuid: `00000000-0000-4000-8000-${String(i + 1).padStart(12, '0')}`,
      event: r.name,
      distinct_id: r.distinct,
      timestamp: new Date(BASE + r.minute * 60_000).toISOString(),
      // `loner` stays personless: capture would otherwise create its person with a `$creator_event_uuid` property.
      properties: { n: r.n, ...(r.src ? { src: r.src } : {}), ...(r.distinct === 'loner' ? { $process_person_profile: false } : {}) },
      // Capture stores no groups on personless events.
      ...(r.company && r.distinct !== 'loner' ? { groups: { 0: r.company } } : {}),
    }),
  ),
  persons: PERSONS,
  groups: { 0: { acme: { industry: 'finance', size: 10 }, beta: { industry: 'retail' } } },
  project: { timezone: 'UTC', weekStartDay: 0, testAccountFilters: [] },
  now: '2024-03-20T12:00:00Z',
  actions: { [ACTION_ID]: { name: 'A or C', eventNames: ['a', 'c'] } },
}))

const subset = <T>(values: ReadonlyArray<T>) => fc.subarray([...values])

export const requestArb: fc.Arbitrary<Record<string, unknown>> = fc
  .record({
    steps: fc.oneof(
      { arbitrary: fc.constant<Array<string | number | null>>(['a', 'b']), weight: 3 },
      { arbitrary: fc.array(fc.constantFrom<string | number | null>('a', 'b', 'c', 'a', 'b', null, ACTION_ID), { minLength: 2, maxLength: 3 }), weight: 2 },
    ),
    order: fc.constantFrom('ordered', 'strict', 'unordered'),
    window: fc.integer({ min: 1, max: 30 }),
    group: fc.integer({ min: 0, max: 3 }).map((k) => k === 0),
    // Sessions of a kind: the src property's values are the actors (funnel_aggregate_by_hogql).
    bySrc: fc.integer({ min: 0, max: 4 }).map((k) => k === 0),
    correlation: fc.oneof(
      fc.record({ funnel_correlation_type: fc.constantFrom('events', undefined), funnel_correlation_exclude_event_names: subset(NAMES) }),
      fc.record({
        funnel_correlation_type: fc.constant('properties'),
        funnel_correlation_names: fc.oneof(subset(['plan', 'age', 'industry', 'size', 'vip', 'zz']).filter((s) => s.length > 0), fc.constant(['$all'])),
        funnel_correlation_exclude_names: subset(['plan', 'industry', 'age']),
      }),
      fc.record({
        funnel_correlation_type: fc.constant('event_with_properties'),
        funnel_correlation_event_names: fc.subarray(['x', 'y', 'c', 'a'], { minLength: 1 }),
        // $groups (added by the loader) holds an object, whose JSON text differs between databases; $process_person_profile
        // marks loner's events: both always left out.
        funnel_correlation_event_exclude_property_names: subset(['src', 'n']).map((s) => [...s, '$groups', '$process_person_profile']),
      }),
    ),
  })
  .map((r) => {
    // Unordered funnels count an event for its lowest matching step, where PostHog's queues may pick another
    // (packages/core/README.md, "Funnels"): their steps here are single events, identical or disjoint.
    const steps = r.order === 'unordered' ? r.steps.map((s) => (typeof s === 'string' ? s : 'c')) : r.steps
    const params: Record<string, unknown> = {
      date_from: '2024-03-01',
      date_to: '2024-03-15',
      events: steps.flatMap((s, i) => (s === ACTION_ID ? [] : [{ id: s, type: 'events', order: i }])),
      actions: steps.flatMap((s, i) => (s === ACTION_ID ? [{ id: ACTION_ID, type: 'actions', order: i }] : [])),
      funnel_order_type: r.order,
      funnel_window_interval: r.window,
      funnel_window_interval_unit: 'minute',
      ...Object.fromEntries(Object.entries(r.correlation).filter(([, v]) => v !== undefined)),
    }
    if (r.group) params.aggregation_group_type_index = 0
    else if (r.bySrc) params.funnel_aggregate_by_hogql = 'properties.src'
    return params
  })
