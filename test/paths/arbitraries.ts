/**
 * Random datasets and paths requests for the reference property, built
 * from per-person journeys: each visit of a few persons (one with two
 * distinct ids, one distinct id without a person) walks page views, screens,
 * custom and other `$` events on a 5-minute grid from the evening before New
 * York's spring change, with ties, gaps of exactly 30 minutes and more (new
 * sessions), in a zone with or without daylight saving. Both sides order
 * equal timestamps by uuid. generator-shares.test.ts checks what the runs reach.
 */
import fc from 'fast-check'
import type { RefDataset, RefEvent } from '../reference/shared/ref-dataset.js'
import type { RefPathsParams } from '../reference/paths/path-sessions.js'

export const PATHS_NOW = new Date('2024-03-12T12:00:00Z')
// 2024-03-10 02:00 is New York's spring change: events start the evening before.
const BASE = Date.parse('2024-03-09T22:00:00Z')
const PERSON_OF: Record<string, string> = { d1: 'P1', d2: 'P1', d3: 'P2', d4: 'P3' }

const URLS = ['/', '/a', '/a/', '/b', '/user/1', '/user/22', '/x/product/9', '/b//']
const NODES = ['/', '/a', '/a/', '/b', '/b/', 'Home', 'signup', '/user/:id', '/user*', '#', 'k1']

const step = fc.record({
  kind: fc.constantFrom('$pageview', '$pageview', '$pageview', '$pageview', '$screen', 'signup', 'buy', '$autocapture'),
  url: fc.option(fc.constantFrom(...URLS), { freq: 8 }),
  screen: fc.option(fc.constantFrom('Home', 'About'), { freq: 4 }),
  // Grid points of 5 minutes since the step before: 0 is a tie, 6 exactly the 30 minutes that end a session.
  gap: fc.constantFrom(0, 1, 1, 1, 2, 2, 3, 6, 7),
  // Now and then a minute later or a second short of the grid.
  jitter: fc.constantFrom(0, 0, 0, 60_000, -1_000),
  tag: fc.constantFrom('k1', 'k2', undefined),
})

/** A person's visit: steps from a start on the grid, one browser (a test account's now and then). */
const journey = fc.record({
  distinct_id: fc.constantFrom('d1', 'd2', 'd3', 'd4', 'd5'),
  // From 22:00Z to 06:00Z: the evening before the change in New York, and past it (07:00Z).
  start: fc.integer({ min: 0, max: 96 }),
  browser: fc.constantFrom('Chrome', 'Chrome', 'Safari', undefined),
  steps: fc.array(step, { minLength: 2, maxLength: 9, size: 'max' }),
})

function eventsOf(journeys: ReadonlyArray<typeof journey extends fc.Arbitrary<infer J> ? J : never>): Array<Omit<RefEvent, 'uuid'>> {
  const out: Array<Omit<RefEvent, 'uuid'>> = []
  for (const j of journeys) {
    let point = j.start
    for (const { kind, url, screen, gap, jitter, tag } of j.steps) {
      point += gap
      out.push({
        event: kind,
        distinct_id: j.distinct_id,
        timestamp: new Date(BASE + point * 5 * 60_000 + jitter).toISOString(),
        properties: {
          ...(kind === '$pageview' && url !== null ? { $current_url: url } : {}),
          ...(kind === '$screen' && screen !== null ? { $screen_name: screen } : {}),
          ...(j.browser === undefined ? {} : { $browser: j.browser }),
          ...(tag === undefined ? {} : { kind: tag }),
        },
      })
    }
  }
  return out
}

/** 3 to 8 journeys: a median of 30 events, 16 to 43 in four datasets of five, at most about 70. */
export const pathsDataset: fc.Arbitrary<RefDataset> = fc
  .record({
    journeys: fc.array(journey, { minLength: 3, maxLength: 8, size: 'max' }),
    timezone: fc.constantFrom('UTC', 'America/New_York'),
    cleaning: fc.boolean(),
  })
  .map(({ journeys, timezone, cleaning }) => ({
    // Unique ids (storage keeps one event per uuid), hashed to uuids by loadDataset's stableUuid: equal
    // timestamps then meet in an order unrelated to the generation order.
    events: eventsOf(journeys).map((e, i) => ({ ...e, uuid: `path-event-${i}` })),
    persons: Object.fromEntries(Object.entries(PERSON_OF).map(([d, id]) => [d, { id, properties: { plan: id === 'P2' ? 'pro' : 'free' } }])),
    project: {
      timezone,
      weekStartDay: 0 as const,
      testAccountFilters: [{ key: '$browser', value: 'Safari', operator: 'is_not', type: 'event' }],
      ...(cleaning ? { pathCleaningFilters: [{ alias: '/user/:id', regex: '/user/[0-9]+' }] } : {}),
    },
    now: PATHS_NOW,
  }))

const optional = <T>(a: fc.Arbitrary<T>) => fc.option(a, { nil: undefined, freq: 2 })
/** Present one time in three (points one time in four): points and weights drop most sessions, so most requests go without. */
const rarely = <T>(a: fc.Arbitrary<T>, without = 2) => fc.oneof({ arbitrary: fc.constant(undefined), weight: without }, { arbitrary: a, weight: 1 })
const subset = <T>(values: T[]) => fc.subarray(values)

export const pathsParams: fc.Arbitrary<RefPathsParams> = fc
  .record({
    include_event_types: fc.oneof(fc.constant([] as string[]), subset(['$pageview', '$screen', 'custom_event', 'hogql'])),
    paths_hogql_expression: optional(fc.constantFrom('properties.kind', "concat(event, '/', properties.kind)")),
    start_point: rarely(fc.constantFrom(...NODES), 3),
    end_point: rarely(fc.constantFrom(...NODES), 3),
    step_limit: optional(fc.integer({ min: 1, max: 7 })),
    exclude_events: optional(subset(['/b', 'buy', '$autocapture', 'About', '$pageview'])),
    path_groupings: optional(subset(['/user*', '*product*', '/a'])),
    path_replacements: optional(fc.boolean()),
    local_path_cleaning_filters: optional(subset([{ alias: '/A', regex: '^/a$' }, { alias: '#', regex: '[0-9]+' }, { alias: '', regex: 'k' }])),
    min_edge_weight: rarely(fc.integer({ min: 0, max: 2 })),
    max_edge_weight: rarely(fc.integer({ min: 0, max: 3 })),
    edge_limit: optional(fc.integer({ min: 1, max: 8 })),
    date_from: optional(fc.constantFrom('2024-03-09', '2024-03-10', '-3d')),
    date_to: optional(fc.constantFrom('2024-03-10', '2024-03-11')),
    properties: rarely(
      fc.constantFrom(
        [{ key: '$browser', value: 'Chrome', operator: 'exact', type: 'event' }],
        [{ key: 'plan', value: 'free', operator: 'exact', type: 'person' }],
      ),
    ),
    filter_test_accounts: optional(fc.boolean()),
  })
  .map((p) => Object.fromEntries(Object.entries(p).filter(([, v]) => v !== undefined)) as RefPathsParams)
