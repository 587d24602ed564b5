/**
 * Worked paths examples, each expectation derived by hand from
 * shared/reference/trends-retention-paths.md §14 and PostHog's
 * paths_query_runner.py (several are PostHog's own test_paths_query_runner.py
 * cases). Edges are `[source, target, value, average ms]`, in result order.
 */
import type { RefDataset, RefEvent, RefPerson } from '../reference/shared/ref-dataset.js'

export type Edge = readonly [string, string, number, number]

export interface PathCase {
  readonly name: string
  readonly params: Record<string, unknown>
  readonly edges: ReadonlyArray<Edge>
}

export interface PathExample {
  readonly name: string
  readonly data: RefDataset
  readonly cases: ReadonlyArray<PathCase>
}

export const NOW = new Date('2024-03-12T12:00:00Z')
const BASE = Date.parse('2024-03-11T10:00:00Z')
const MIN = 60_000

let serial = 0
/** An event `minutes` after 2024-03-11T10:00Z. */
function ev(distinctId: string, event: string, minutes: number, properties: Record<string, unknown> = {}): RefEvent {
  serial += 1
  return { uuid: `path-example-${serial}`, event, distinct_id: distinctId, timestamp: new Date(BASE + Math.round(minutes * MIN)).toISOString(), properties }
}
const pv = (d: string, url: string | null, minutes: number, extra: Record<string, unknown> = {}) =>
  ev(d, '$pageview', minutes, url === null ? extra : { $current_url: url, ...extra })

const persons = (groups: Record<string, string[]>, props: Record<string, Record<string, unknown>> = {}): Record<string, RefPerson> =>
  Object.fromEntries(Object.entries(groups).flatMap(([id, ids]) => ids.map((d) => [d, { id, properties: props[id] ?? {} }])))

const project = (over: Partial<RefDataset['project']> = {}): RefDataset['project'] => ({ timezone: 'UTC', weekStartDay: 0, testAccountFilters: [], ...over })

// PostHog's test_current_url_paths_and_logic: 7 minutes between most steps.
const basic: RefDataset = {
  events: [
    pv('p1', '/', 0, { $browser: 'Chrome' }),
    pv('p1', '/about', 7, { $browser: 'Chrome' }),
    pv('p2a', '/', 0),
    pv('p2b', '/pricing', 7),
    pv('p2a', '/about', 8),
    pv('p3', '/pricing', 0, { $browser: 'Chrome' }),
    pv('p3', '/', 7, { $browser: 'Chrome' }),
    pv('p4', '/', 0),
    pv('p4', '/pricing', 7),
  ],
  persons: persons({ P1: ['p1'], P2: ['p2a', 'p2b'], P3: ['p3'], P4: ['p4'] }, { P1: { email: 'test@posthog.com' } }),
  project: project({ testAccountFilters: [{ key: 'email', value: '@posthog.com', operator: 'not_icontains', type: 'person' }] }),
  now: NOW,
}
const SEVEN = 7 * MIN

// PostHog's test_paths_start, one minute between each person's steps.
const start: RefDataset = {
  events: [
    pv('s1', '/', 0), pv('s1', '/about/', 1),
    pv('s2', '/', 0), pv('s2', '/pricing/', 1), pv('s2', '/about', 2),
    pv('s3', '/pricing', 0), pv('s3', '/', 1), pv('s3', '/about/', 2),
    pv('s4', '/', 0), pv('s4', '/pricing/', 1),
    pv('s5a', '/pricing', 0), pv('s5b', '/about', 1), pv('s5a', '/pricing/', 2), pv('s5b', '/help', 3),
  ],
  persons: persons({ S5: ['s5a', 's5b'] }),
  project: project(),
  now: NOW,
}

const custom = (suffix: Record<string, unknown>): RefDataset => ({
  events: [
    ev('c1', 'custom_event_1', 0, suffix), ev('c1', 'custom_event_3', 1, suffix), pv('c1', '/', 2),
    ev('c2', 'custom_event_1', 0, suffix), ev('c2', 'custom_event_2', 1, suffix), ev('c2', 'custom_event_3', 2, suffix),
    ev('c3', 'custom_event_2', 0, suffix), ev('c3', 'custom_event_1', 1, suffix),
    ev('c4', 'custom_event_1', 0, suffix), ev('c4', 'custom_event_2', 1, suffix),
  ],
  persons: {},
  project: project(),
  now: NOW,
})

const screens: RefDataset = {
  events: [
    ev('m1', '$screen', 0, { $screen_name: 'Home' }), ev('m1', '$screen', 1, { $screen_name: 'About' }),
    ev('m2', '$screen', 0, { $screen_name: 'Home' }), ev('m2', '$screen', 2, { $screen_name: 'Pricing' }), pv('m2', '/web', 3),
  ],
  persons: {},
  project: project(),
  now: NOW,
}

// Start /2 and end /about on an uneven clock: 0, 1, 3, 6, 10, 15 minutes.
const between: RefDataset = {
  events: [
    pv('b1', '/1', 0), pv('b1', '/2', 1), pv('b1', '/3', 3), pv('b1', '/4', 6), pv('b1', '/5', 10), pv('b1', '/about', 15),
    pv('b2', '/2', 0), pv('b2', '/about', 1),
    pv('b3', '/about', 0), pv('b3', '/2', 1),
  ],
  persons: {},
  project: project(),
  now: NOW,
}

// `between` and a page whose URL is the text `...`: its node and the ellipsis of b1's cut path are one node.
const dotted: RefDataset = { ...between, events: [...between.events, pv('b4', '/2', 0), pv('b4', '/3', 2), pv('b4', '...', 5), pv('b4', '/about', 9)] }

// An end point that is also its session's last event, then a second session that reaches it again.
const endsAtEnd: RefDataset = {
  events: [pv('e1', '/a', 0), pv('e1', '/about', 1), pv('e1', '/b', 41), pv('e1', '/about', 42)],
  persons: {},
  project: project(),
  now: NOW,
}

// Runs collapse to their last event; 30 minutes apart is a new session, 29:59 is not.
const sessions: RefDataset = {
  events: [
    pv('x1', '/a', 0), pv('x1', '/a', 1), pv('x1', '/b', 2), pv('x1', '/b', 3), pv('x1', '/c', 33), pv('x1', '/d', 62),
    pv('x2', '/a', 0), ev('x2', '$pageview', 29 + 59 / 60, { $current_url: '/b' }),
    pv('x3', '/a', 0), pv('x3', null, 1),
    pv('x4', null, 0), pv('x4', '/b', 1),
  ],
  persons: {},
  project: project(),
  now: NOW,
}

const long: RefDataset = {
  events: [1, 2, 3, 4, 5, 6, 7].map((i) => pv('l1', `/${i}`, i)),
  persons: {},
  project: project(),
  now: NOW,
}

const cleaning: RefDataset = {
  events: [
    pv('k1', '/user/1/edit', 0), pv('k1', '/user/22/edit', 1), pv('k1', '/home', 2),
    pv('k2', '/product/1', 0), pv('k2', '/product/2', 1), pv('k2', '/cart', 3),
    pv('k3', '/x/product/9', 0), pv('k3', '/cart', 1),
    pv('k4', '/a', 0), pv('k4', '/b', 1), pv('k4', '/c', 2),
  ],
  persons: {},
  project: project({ pathCleaningFilters: [{ alias: '/u', regex: '^/user' }] }),
  now: NOW,
}

// America/New_York is UTC-5 on 2024-03-08/09: 04:50Z is 23:50 on the 8th, 05:10Z 00:10 on the 9th.
const zoned: RefDataset = {
  events: [
    { uuid: 'zone-1', event: '$pageview', distinct_id: 'z1', timestamp: '2024-03-09T04:50:00Z', properties: { $current_url: '/a' } },
    { uuid: 'zone-2', event: '$pageview', distinct_id: 'z1', timestamp: '2024-03-09T05:10:00Z', properties: { $current_url: '/b' } },
    { uuid: 'zone-3', event: '$pageview', distinct_id: 'z1', timestamp: '2024-03-09T05:20:00Z', properties: { $current_url: '/c' } },
  ],
  persons: {},
  project: project({ timezone: 'America/New_York' }),
  now: NOW,
}

export const EXAMPLES: ReadonlyArray<PathExample> = [
  {
    name: 'page views (PostHog test_current_url_paths_and_logic)',
    data: basic,
    cases: [
      { name: 'defaults', params: {}, edges: [['1_/', '2_/pricing', 2, SEVEN], ['1_/', '2_/about', 1, SEVEN], ['1_/pricing', '2_/', 1, SEVEN], ['2_/pricing', '3_/about', 1, MIN]] },
      { name: 'filter_test_accounts drops P1', params: { filter_test_accounts: true }, edges: [['1_/', '2_/pricing', 2, SEVEN], ['1_/pricing', '2_/', 1, SEVEN], ['2_/pricing', '3_/about', 1, MIN]] },
      { name: 'global properties', params: { properties: [{ key: '$browser', value: 'Chrome', operator: 'exact', type: 'event' }] }, edges: [['1_/', '2_/about', 1, SEVEN], ['1_/pricing', '2_/', 1, SEVEN]] },
      { name: 'a range after the events', params: { date_from: '2024-03-12' }, edges: [] },
      { name: 'a range before the events', params: { date_from: '2024-03-01', date_to: '2024-03-10' }, edges: [] },
      { name: 'min_edge_weight 2', params: { min_edge_weight: 2 }, edges: [['1_/', '2_/pricing', 2, SEVEN]] },
      // 2_/pricing -> 3_/about loses its way in from 1_/ -> 2_/pricing, so it is not reachable.
      { name: 'max_edge_weight 1, then reachability', params: { max_edge_weight: 1 }, edges: [['1_/', '2_/about', 1, SEVEN], ['1_/pricing', '2_/', 1, SEVEN]] },
      { name: 'edge_limit 1', params: { edge_limit: 1 }, edges: [['1_/', '2_/pricing', 2, SEVEN]] },
      { name: 'include $pageview', params: { include_event_types: ['$pageview'] }, edges: [['1_/', '2_/pricing', 2, SEVEN], ['1_/', '2_/about', 1, SEVEN], ['1_/pricing', '2_/', 1, SEVEN], ['2_/pricing', '3_/about', 1, MIN]] },
      { name: 'include $screen only: nothing', params: { include_event_types: ['$screen'] }, edges: [] },
    ],
  },
  {
    name: 'start and end points (PostHog test_paths_start)',
    data: start,
    cases: [
      {
        name: 'start /pricing',
        params: { start_point: '/pricing' },
        edges: [['1_/pricing', '2_/about', 2, MIN], ['1_/pricing', '2_/', 1, MIN], ['2_/', '3_/about', 1, MIN], ['2_/about', '3_/pricing', 1, MIN], ['3_/pricing', '4_/help', 1, MIN]],
      },
      {
        name: 'start /pricing/ (one trailing slash ignored)',
        params: { start_point: '/pricing/' },
        edges: [['1_/pricing', '2_/about', 2, MIN], ['1_/pricing', '2_/', 1, MIN], ['2_/', '3_/about', 1, MIN], ['2_/about', '3_/pricing', 1, MIN], ['3_/pricing', '4_/help', 1, MIN]],
      },
      { name: 'start /', params: { start_point: '/' }, edges: [['1_/', '2_/about', 2, MIN], ['1_/', '2_/pricing', 2, MIN], ['2_/pricing', '3_/about', 1, MIN]] },
      {
        name: 'end /about',
        params: { end_point: '/about' },
        edges: [['1_/', '2_/about', 1, MIN], ['1_/', '2_/pricing', 1, MIN], ['1_/pricing', '2_/', 1, MIN], ['1_/pricing', '2_/about', 1, MIN], ['2_/', '3_/about', 1, MIN], ['2_/pricing', '3_/about', 1, MIN]],
      },
      { name: 'end /about, the last 2 steps', params: { end_point: '/about', step_limit: 2 }, edges: [['1_/', '2_/about', 2, MIN], ['1_/pricing', '2_/about', 2, MIN]] },
    ],
  },
  {
    name: 'both points',
    data: between,
    cases: [
      {
        name: 'step_limit 4 puts ... in the middle, timed at the node it stands on',
        params: { start_point: '/2', end_point: '/about', step_limit: 4 },
        edges: [['1_/2', '2_/3', 1, 2 * MIN], ['1_/2', '2_/about', 1, MIN], ['2_/3', '3_...', 1, 3 * MIN], ['3_...', '4_/5', 1, 4 * MIN], ['4_/5', '5_/about', 1, 5 * MIN]],
      },
      {
        name: 'step_limit 5 keeps the whole span',
        params: { start_point: '/2', end_point: '/about' },
        edges: [['1_/2', '2_/3', 1, 2 * MIN], ['1_/2', '2_/about', 1, MIN], ['2_/3', '3_/4', 1, 3 * MIN], ['3_/4', '4_/5', 1, 4 * MIN], ['4_/5', '5_/about', 1, 5 * MIN]],
      },
      {
        name: 'step_limit 3: one node each side',
        params: { start_point: '/2', end_point: '/about', step_limit: 3 },
        edges: [['1_/2', '2_...', 1, 2 * MIN], ['1_/2', '2_/about', 1, MIN], ['2_...', '3_/about', 1, 12 * MIN]],
      },
    ],
  },
  {
    name: 'an end point that ends its session',
    data: endsAtEnd,
    cases: [
      {
        // The first /about closes its session (40 minutes pass); the second session is cut at its own /about.
        name: 'end /about: both sessions',
        params: { end_point: '/about' },
        edges: [['1_/a', '2_/about', 1, MIN], ['1_/b', '2_/about', 1, MIN]],
      },
    ],
  },
  {
    name: 'a page named ... meets the ellipsis',
    data: dotted,
    cases: [
      {
        // b4's path fits the limit whole; its third node is its own '...' page, the same key as b1's cut.
        name: 'step_limit 4: one 3_... node for both',
        params: { start_point: '/2', end_point: '/about', step_limit: 4 },
        edges: [
          ['1_/2', '2_/3', 2, 2 * MIN],
          ['2_/3', '3_...', 2, 3 * MIN],
          ['1_/2', '2_/about', 1, MIN],
          ['3_...', '4_/5', 1, 4 * MIN],
          ['3_...', '4_/about', 1, 4 * MIN],
          ['4_/5', '5_/about', 1, 5 * MIN],
        ],
      },
    ],
  },
  {
    name: 'custom events (PostHog test_custom_event_paths)',
    data: custom({}),
    cases: [
      {
        name: 'custom_event',
        params: { include_event_types: ['custom_event'] },
        edges: [['1_custom_event_1', '2_custom_event_2', 2, MIN], ['1_custom_event_1', '2_custom_event_3', 1, MIN], ['1_custom_event_2', '2_custom_event_1', 1, MIN], ['2_custom_event_2', '3_custom_event_3', 1, MIN]],
      },
      {
        name: 'every event type: page views by URL',
        params: {},
        edges: [['1_custom_event_1', '2_custom_event_2', 2, MIN], ['1_custom_event_1', '2_custom_event_3', 1, MIN], ['1_custom_event_2', '2_custom_event_1', 1, MIN], ['2_custom_event_2', '3_custom_event_3', 1, MIN], ['2_custom_event_3', '3_/', 1, MIN]],
      },
    ],
  },
  {
    name: 'HogQL node names (PostHog test_custom_hogql_paths)',
    data: custom({ a: '!' }),
    cases: [
      {
        // The page view has no `a`: concat reads null as '', so it is named `$pageview`.
        name: 'event || properties.a',
        params: { include_event_types: ['hogql'], paths_hogql_expression: 'event || properties.a' },
        edges: [['1_custom_event_1!', '2_custom_event_2!', 2, MIN], ['1_custom_event_1!', '2_custom_event_3!', 1, MIN], ['1_custom_event_2!', '2_custom_event_1!', 1, MIN], ['2_custom_event_2!', '3_custom_event_3!', 1, MIN], ['2_custom_event_3!', '3_$pageview', 1, MIN]],
      },
    ],
  },
  {
    name: 'screens',
    data: screens,
    cases: [
      { name: '$screen', params: { include_event_types: ['$screen'] }, edges: [['1_Home', '2_About', 1, MIN], ['1_Home', '2_Pricing', 1, 2 * MIN]] },
      { name: '$screen and $pageview', params: { include_event_types: ['$screen', '$pageview'] }, edges: [['1_Home', '2_About', 1, MIN], ['1_Home', '2_Pricing', 1, 2 * MIN], ['2_Pricing', '3_/web', 1, MIN]] },
    ],
  },
  {
    name: 'sessions and duplicates',
    data: sessions,
    cases: [
      // x1: /a /a /b /b -> [/a@1, /b@3]; /c at 33 is a new session, /d at 62 is 29 minutes later.
      // x2: 29:59 apart, one session. x3: a trailing '' is dropped. x4: a leading '' is a node.
      { name: 'defaults', params: {}, edges: [['1_/a', '2_/b', 2, (2 * MIN + (29 * MIN + 59_000)) / 2], ['1_', '2_/b', 1, MIN], ['1_/c', '2_/d', 1, 29 * MIN]] },
    ],
  },
  {
    name: 'step_limit',
    data: long,
    cases: [
      { name: 'default 5', params: {}, edges: [['1_/1', '2_/2', 1, MIN], ['2_/2', '3_/3', 1, MIN], ['3_/3', '4_/4', 1, MIN], ['4_/4', '5_/5', 1, MIN]] },
      { name: '2', params: { step_limit: 2 }, edges: [['1_/1', '2_/2', 1, MIN]] },
      { name: 'end /7, the last 3', params: { step_limit: 3, end_point: '/7' }, edges: [['1_/5', '2_/6', 1, MIN], ['2_/6', '3_/7', 1, MIN]] },
    ],
  },
  {
    name: 'cleaning, groupings, exclusions',
    data: cleaning,
    cases: [
      {
        name: 'a local rule',
        params: { local_path_cleaning_filters: [{ alias: '/<id>', regex: '/\\d+' }] },
        edges: ([['1_/product/<id>', '2_/cart', 1, 2 * MIN], ['1_/user/<id>/edit', '2_/home', 1, MIN], ['1_/a', '2_/b', 1, MIN], ['1_/x/product/<id>', '2_/cart', 1, MIN], ['2_/b', '3_/c', 1, MIN]] as Edge[]).sort(byKey),
      },
      {
        name: 'project rules first, then local ones in order',
        params: { path_replacements: true, local_path_cleaning_filters: [{ alias: '/<id>', regex: '/\\d+' }, { alias: '/profile', regex: '^/u/<id>/edit$' }] },
        edges: ([['1_/product/<id>', '2_/cart', 1, 2 * MIN], ['1_/profile', '2_/home', 1, MIN], ['1_/a', '2_/b', 1, MIN], ['1_/x/product/<id>', '2_/cart', 1, MIN], ['2_/b', '3_/c', 1, MIN]] as Edge[]).sort(byKey),
      },
      {
        name: 'groupings match anywhere',
        params: { path_groupings: ['/product/*', '/user*'] },
        edges: [['1_/product/*', '2_/cart', 2, (2 * MIN + MIN) / 2], ['1_/a', '2_/b', 1, MIN], ['1_/user*', '2_/home', 1, MIN], ['2_/b', '3_/c', 1, MIN]],
      },
      { name: 'exclude_events with an event type', params: { include_event_types: ['$pageview'], exclude_events: ['/b', '/cart'] }, edges: [['1_/a', '2_/c', 1, 2 * MIN], ['1_/product/1', '2_/product/2', 1, MIN], ['1_/user/1/edit', '2_/user/22/edit', 1, MIN], ['2_/user/22/edit', '3_/home', 1, MIN]] },
      {
        name: 'exclude_events without event types is not applied (PostHog)',
        params: { exclude_events: ['/b', '/cart'] },
        edges: [['1_/a', '2_/b', 1, MIN], ['1_/product/1', '2_/product/2', 1, MIN], ['1_/user/1/edit', '2_/user/22/edit', 1, MIN], ['1_/x/product/9', '2_/cart', 1, MIN], ['2_/b', '3_/c', 1, MIN], ['2_/product/2', '3_/cart', 1, 2 * MIN], ['2_/user/22/edit', '3_/home', 1, MIN]],
      },
    ],
  },
  {
    name: 'date range in the project zone',
    data: zoned,
    cases: [
      { name: 'date_from starts at local midnight', params: { date_from: '2024-03-09' }, edges: [['1_/b', '2_/c', 1, 10 * MIN]] },
      { name: 'date_to ends at the end of its local day', params: { date_from: '2024-03-01', date_to: '2024-03-08' }, edges: [] },
      { name: 'both days', params: { date_from: '2024-03-08', date_to: '2024-03-09' }, edges: [['1_/a', '2_/b', 1, 20 * MIN], ['2_/b', '3_/c', 1, 10 * MIN]] },
    ],
  },
]

/** All value-1 edges: ordered by source, then target, by code point (all ASCII here). */
function byKey([s1, t1]: Edge, [s2, t2]: Edge): number {
  return s1 < s2 ? -1 : s1 > s2 ? 1 : t1 < t2 ? -1 : t1 > t2 ? 1 : 0
}
