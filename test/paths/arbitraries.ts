/**
 * Random small datasets and paths requests for the reference property:
 * page views, screens, custom and other `$` events of a few persons (one
 * with two distinct ids, one distinct id without a person) over a few hours
 * with gaps around 30 minutes (a 5-minute grid over three hours), equal timestamps included (both sides order
 * them by uuid), in a zone with or without daylight saving.
 */
import fc from 'fast-check'
import type { RefDataset, RefEvent } from '../reference/ref-dataset.js'
import type { RefPathsParams } from '../reference/path-sessions.js'

export const PATHS_NOW = new Date('2024-03-12T12:00:00Z')
// 2024-03-10 02:00 is New York's spring change: events start the evening before.
const BASE = Date.parse('2024-03-09T22:00:00Z')
const PERSON_OF: Record<string, string> = { d1: 'P1', d2: 'P1', d3: 'P2', d4: 'P3' }

const URLS = ['/', '/a', '/a/', '/b', '/user/1', '/user/22', '/x/product/9', '/b//']
const NODES = ['/', '/a', '/a/', '/b', '/b/', 'Home', 'signup', '/user/:id', '/user*', '#', 'k1']

const event: fc.Arbitrary<Omit<RefEvent, 'uuid'>> = fc
  .record({
    kind: fc.constantFrom('$pageview', '$pageview', '$pageview', '$screen', 'signup', 'buy', '$autocapture'),
    url: fc.option(fc.constantFrom(...URLS), { freq: 6 }),
    screen: fc.option(fc.constantFrom('Home', 'About'), { freq: 4 }),
    distinct_id: fc.constantFrom('d1', 'd2', 'd3', 'd4', 'd5'),
    // Minutes on a coarse grid (so runs, ties and gaps of exactly 30 minutes happen), sometimes a second short.
    minute: fc.integer({ min: 0, max: 36 }).map((i) => i * 5),
    jitter: fc.constantFrom(0, 0, 0, 60_000, -1_000),
    browser: fc.constantFrom('Chrome', 'Safari', undefined),
    tag: fc.constantFrom('k1', 'k2', undefined),
  })
  .map(({ kind, url, screen, distinct_id, minute, jitter, browser, tag }) => ({
    event: kind,
    distinct_id,
    timestamp: new Date(BASE + minute * 60_000 + jitter).toISOString(),
    properties: {
      ...(kind === '$pageview' && url !== null ? { $current_url: url } : {}),
      ...(kind === '$screen' && screen !== null ? { $screen_name: screen } : {}),
      ...(browser === undefined ? {} : { $browser: browser }),
      ...(tag === undefined ? {} : { kind: tag }),
    },
  }))

export const pathsDataset: fc.Arbitrary<RefDataset> = fc
  .record({
    events: fc.array(event, { minLength: 10, maxLength: 40 }),
    timezone: fc.constantFrom('UTC', 'America/New_York'),
    cleaning: fc.boolean(),
  })
  .map(({ events, timezone, cleaning }) => ({
    // Unique ids (storage keeps one event per uuid), hashed to uuids by loadDataset's stableUuid: equal
    // timestamps then meet in an order unrelated to the generation order.
    events: events.map((e, i) => ({ ...e, uuid: `path-event-${i}` })),
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
/** Present one time in three: points and weights drop most sessions, so most requests go without. */
const rarely = <T>(a: fc.Arbitrary<T>) => fc.oneof({ arbitrary: fc.constant(undefined), weight: 2 }, { arbitrary: a, weight: 1 })
const subset = <T>(values: T[]) => fc.subarray(values)

export const pathsParams: fc.Arbitrary<RefPathsParams> = fc
  .record({
    include_event_types: fc.oneof(fc.constant([] as string[]), subset(['$pageview', '$screen', 'custom_event', 'hogql'])),
    paths_hogql_expression: optional(fc.constantFrom('properties.kind', "concat(event, '/', properties.kind)")),
    start_point: rarely(fc.constantFrom(...NODES)),
    end_point: rarely(fc.constantFrom(...NODES)),
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
