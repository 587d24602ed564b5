/**
 * Worked examples of breakdowns (reference §7): event, person, group,
 * cohort, multi, histogram; limit, Other, null, ordering. Derived by hand.
 */
import { ev, personsOf, UTC, type TrendExample } from './trend-example-data.js'

const NOW = '2024-01-20T12:00:00Z'
const NULL = '$$_posthog_breakdown_null_$$'
const OTHER = '$$_posthog_breakdown_other_$$'
const JAN_1 = { date_from: '2024-01-01', date_to: '2024-01-01' }
/** Chrome 3 events, null 2 (a missing and an empty $browser), Safari 1 (Jan 1), Firefox 1 (Jan 2). */
const NULL_AND_THREE = {
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
}
const browsers = (event: string, ...values: Array<string | undefined>) =>
  values.map((b, i) => ev(event, `u${i}`, `2024-01-01T10:${String(i).padStart(2, '0')}:00Z`, b === undefined ? {} : { $browser: b }))

export const BREAKDOWN_EXAMPLES: TrendExample[] = [
  {
    name: 'event breakdown: null ranks after every real value before the limit; Other last',
    data: NULL_AND_THREE,
    params: { events: [{ id: '$pageview' }], date_from: '2024-01-01', date_to: '2024-01-02', breakdown: '$browser', breakdown_limit: 2 },
    expected: [
      { breakdown_value: 'Chrome', label: 'Chrome', data: [2, 1], count: 3 },
      { breakdown_value: 'Firefox', label: 'Firefox', data: [0, 1], count: 1 },
      { breakdown_value: OTHER, label: OTHER, data: [2, 1], count: 3 },
    ],
    why: "Totals: Chrome 3, null 2 (a missing and an empty $browser), Firefox 1, Safari 1. A time series ranks with row_number() OVER (ORDER BY ordering, total DESC, value ASC), ordering 1 for null (trends_query_builder.py), and keeps ranks <= 2: Chrome, then Firefox (before Safari by value). Safari (Jan 1) and null (Jan 1, Jan 2) fold into Other = [2, 1]. The rows add up to the unbroken [4, 3].",
  },
  {
    name: 'total-value breakdown: null competes for the limit on its total',
    data: NULL_AND_THREE,
    params: { events: [{ id: '$pageview' }], date_from: '2024-01-01', date_to: '2024-01-02', breakdown: '$browser', breakdown_limit: 2, display: 'ActionsBarValue' },
    expected: [
      { breakdown_value: 'Chrome', aggregated_value: 3 },
      { breakdown_value: NULL, aggregated_value: 2 },
      { breakdown_value: OTHER, aggregated_value: 2 },
    ],
    why: "A total-value display ranks with row_number() OVER (ORDER BY total DESC) alone and folds row_number >= limit + 1 (trends_query_builder.py _total_value_by_breakdown_query): Chrome 3 and null 2 are kept; Safari and Firefox (1 each) fold into Other = 2. Shown real, null, Other.",
  },
  {
    name: 'dau breakdown: Other counts distinct persons across the folded values',
    data: {
      project: UTC,
      now: NOW,
      persons: personsOf({ p1: [['x1']], p2: [['x2']], p3: [['x3']], p4: [['x4']], p5: [['x5']] }),
      events: [
        ['x1', 'Chrome'],
        ['x2', 'Chrome'],
        ['x2', 'Firefox'],
        ['x3', 'Safari'],
        ['x4', 'Safari'],
        ['x5', 'Safari'],
      ].map(([d, b]) => ev('$pageview', d!, '2024-01-01T10:00:00Z', { $browser: b })),
    },
    params: { events: [{ id: '$pageview', math: 'dau' }], ...JAN_1, breakdown: '$browser', breakdown_limit: 1 },
    expected: [
      { breakdown_value: 'Safari', data: [3] },
      { breakdown_value: OTHER, data: [2] },
    ],
    why: 'Safari 3 persons, Chrome 2 (p1, p2), Firefox 1 (p2). Limit 1 keeps Safari; Other is the distinct persons of Chrome and Firefox events: p1, p2 = 2, not 2 + 1.',
  },
  {
    name: 'unique_group breakdown: events without the group make no value',
    data: {
      project: UTC,
      now: NOW,
      persons: {},
      events: [
        ev('$pageview', 'u1', '2024-01-01T10:00:00Z', { $browser: 'Chrome' }, { 0: 'g1' }),
        ev('$pageview', 'u2', '2024-01-01T10:00:00Z', { $browser: 'Chrome' }, { 0: 'g2' }),
        ev('$pageview', 'u3', '2024-01-01T10:00:00Z', { $browser: 'Firefox' }, { 0: 'g1' }),
        ev('$pageview', 'u4', '2024-01-01T10:00:00Z', { $browser: 'Safari' }),
        ev('$pageview', 'u5', '2024-01-01T10:00:00Z', { $browser: 'Chrome' }, { 1: 'x' }),
      ],
    },
    params: { events: [{ id: '$pageview', math: 'unique_group', math_group_type_index: 0 }], ...JAN_1, breakdown: '$browser' },
    expected: [
      { breakdown_value: 'Chrome', data: [2] },
      { breakdown_value: 'Firefox', data: [1] },
    ],
    why: "The events filter adds $group_0 != '' for unique_group (trends_query_builder.py, \"Ignore empty groups\"), so only events with a type-0 group are broken down: Chrome g1, g2 = 2; Firefox g1 = 1. Safari (no group) and the Chrome event with only a type-1 group make no rows (not rows worth 0).",
  },
  {
    name: 'unique_group histogram breakdown: bins span only the events with the group',
    data: {
      project: UTC,
      now: NOW,
      persons: {},
      events: [
        ev('purchase', 'u1', '2024-01-01T10:00:00Z', { amount: 0 }, { 0: 'g1' }),
        ev('purchase', 'u2', '2024-01-01T10:00:00Z', { amount: 4 }, { 0: 'g2' }),
        ev('purchase', 'u3', '2024-01-01T10:00:00Z', { amount: 10 }),
      ],
    },
    params: { events: [{ id: 'purchase', math: 'unique_group', math_group_type_index: 0 }], ...JAN_1, breakdown: 'amount', breakdown_histogram_bin_count: 2 },
    expected: [
      { breakdown_value: '[0.0,2.0]', data: [1] },
      { breakdown_value: '[2.0,4.01]', data: [1] },
    ],
    why: "The histogram's min_max CTE is the series' own events query, whose filter drops events without the group ($group_0 != ''): min 0, max 4 (the 10 has no group), bins [0, 2) and [2, 4.01). g1 (0) in the first, g2 (4) in the second; equal counts by value ascending.",
  },
  {
    name: 'person breakdown',
    data: {
      project: UTC,
      now: NOW,
      persons: personsOf({ p1: [['x1'], { plan: 'pro' }], p2: [['x2'], { plan: 'free' }], p3: [['x3'], {}] }),
      events: ['x1', 'x1', 'x2', 'x3'].map((d) => ev('$pageview', d, '2024-01-01T10:00:00Z')),
    },
    params: { events: [{ id: '$pageview' }], ...JAN_1, breakdown: 'plan', breakdown_type: 'person' },
    expected: [
      { breakdown_value: 'pro', data: [2] },
      { breakdown_value: 'free', data: [1] },
      { breakdown_value: NULL, data: [1] },
    ],
    why: "p1 (pro) 2 events, p2 (free) 1, p3 has no plan: null 1. Real values by total, then null.",
  },
  {
    name: 'group breakdown: the group\'s properties; no group or no property is null',
    data: {
      project: UTC,
      now: NOW,
      persons: {},
      groups: { 0: { acme: { industry: 'tech' }, beta: { industry: 'finance' }, gamma: {} } },
      events: [
        ev('$pageview', 'u1', '2024-01-01T10:00:00Z', {}, { 0: 'acme' }),
        ev('$pageview', 'u2', '2024-01-01T10:00:00Z', {}, { 0: 'acme' }),
        ev('$pageview', 'u3', '2024-01-01T10:00:00Z', {}, { 0: 'beta' }),
        ev('$pageview', 'u4', '2024-01-01T10:00:00Z', {}, { 0: 'gamma' }),
        ev('$pageview', 'u5', '2024-01-01T10:00:00Z', { industry: 'event-level' }),
      ],
    },
    params: { events: [{ id: '$pageview' }], ...JAN_1, breakdown: 'industry', breakdown_type: 'group', breakdown_group_type_index: 0 },
    expected: [
      { breakdown_value: 'tech', data: [2] },
      { breakdown_value: 'finance', data: [1] },
      { breakdown_value: NULL, data: [2] },
    ],
    why: 'acme is tech (2 events), beta finance (1); gamma has no industry and the last event has no group (its event property does not count): null 2, shown last.',
  },
  {
    name: 'cohort breakdown: a person counts in every cohort it belongs to; "all" is everyone',
    data: {
      project: UTC,
      now: NOW,
      persons: personsOf({ p1: [['x1']], p2: [['x2']], p3: [['x3']], p4: [['x4']] }),
      cohorts: { 1: ['p1', 'p2'], 2: ['p2', 'p3'] },
      events: ['x1', 'x2', 'x2', 'x3', 'x3', 'x3', 'x4'].map((d) => ev('$pageview', d, '2024-01-01T10:00:00Z')),
    },
    params: { events: [{ id: '$pageview' }], ...JAN_1, breakdown: ['all', 1, 2], breakdown_type: 'cohort' },
    expected: [
      { breakdown_value: 'all', data: [7] },
      { breakdown_value: 2, data: [5] },
      { breakdown_value: 1, data: [3] },
    ],
    why: 'All users: 7 events. Cohort 2 (p2, p3): 2 + 3 = 5. Cohort 1 (p1, p2): 1 + 2 = 3. p2 counts in both. Ranked by total.',
  },
  {
    name: 'multi-breakdown with limit 2: parts joined by ::, Other in every position',
    data: {
      project: UTC,
      now: NOW,
      persons: personsOf({ p1: [['x1'], { plan: 'pro' }], p2: [['x2'], { plan: 'free' }], p3: [['x3']] }),
      events: [
        ['x1', 'Chrome'],
        ['x1', 'Chrome'],
        ['x2', 'Chrome'],
        ['x1', 'Safari'],
        ['x3', 'Safari'],
        ['x3', 'Safari'],
      ].map(([d, b]) => ev('$pageview', d!, '2024-01-01T10:00:00Z', { $browser: b })),
    },
    params: {
      events: [{ id: '$pageview' }],
      ...JAN_1,
      breakdowns: [
        { property: '$browser', type: 'event' },
        { property: 'plan', type: 'person' },
      ],
      breakdown_limit: 2,
    },
    expected: [
      { breakdown_value: ['Chrome', 'pro'], label: 'Chrome::pro', data: [2] },
      { breakdown_value: ['Chrome', 'free'], label: 'Chrome::free', data: [1] },
      { breakdown_value: [OTHER, OTHER], label: `${OTHER}::${OTHER}`, data: [3] },
    ],
    why: "Combinations: Chrome::pro 2, Safari::null 2, Chrome::free 1, Safari::pro 1. A time series ranks combinations with a null part after the real ones (ordering = has(breakdown_value, null) ? 1 : 0) before the cut: Chrome::pro, Chrome::free, Safari::pro (ties by value, Chrome first), Safari::null. The top two are kept; Safari::pro and Safari::null fold into Other = 1 + 2 = 3.",
  },
  {
    name: 'breakdown with two series: "<series> - <value>", series A rows first',
    data: {
      project: UTC,
      now: NOW,
      persons: {},
      events: [...browsers('signup', 'Chrome'), ...browsers('login', 'Chrome', 'Safari', 'Chrome')],
    },
    params: { events: [{ id: 'signup' }, { id: 'login' }], ...JAN_1, breakdown: '$browser' },
    expected: [
      { label: 'signup - Chrome', breakdown_value: 'Chrome', data: [1] },
      { label: 'login - Chrome', breakdown_value: 'Chrome', data: [2] },
      { label: 'login - Safari', breakdown_value: 'Safari', data: [1] },
    ],
    why: 'signup: Chrome 1. login: Chrome 2, Safari 1. Each series ranked on its own, series A first.',
  },
  {
    name: 'breakdown: a series with no events gives no rows, but still counts for the label prefix',
    data: { project: UTC, now: NOW, persons: {}, events: browsers('$pageview', 'Chrome') },
    params: { events: [{ id: 'never' }, { id: '$pageview' }], ...JAN_1, breakdown: '$browser' },
    expected: [{ label: '$pageview - Chrome', data: [1] }],
    why: '"never" has no rows, so no object; $pageview has Chrome 1; two series in the query, so the label carries the series name.',
  },
  {
    name: 'breakdown values are strings: numbers and booleans in JSON spelling, 5 and "5" together',
    data: {
      project: UTC,
      now: NOW,
      persons: {},
      events: [5, '5', 5.5, true, true, true].map((n, i) => ev('$pageview', 'u1', `2024-01-01T10:0${i}:00Z`, { n })),
    },
    params: { events: [{ id: '$pageview' }], ...JAN_1, breakdown: 'n' },
    expected: [
      { breakdown_value: 'true', data: [3] },
      { breakdown_value: '5', data: [2] },
      { breakdown_value: '5.5', data: [1] },
    ],
    why: "toString: true -> 'true' (3), 5 and '5' -> '5' (2), 5.5 -> '5.5' (1).",
  },
  {
    name: 'histogram breakdown: equal-width bins, the last edge + 0.01, non-numbers in no bin',
    data: {
      project: UTC,
      now: NOW,
      persons: {},
      events: [1, 2, 2.5, 4, 5, 'abc'].map((amount, i) => ev('purchase', 'u1', `2024-01-01T10:0${i}:00Z`, { amount })),
    },
    params: { events: [{ id: 'purchase' }], ...JAN_1, breakdown: 'amount', breakdown_histogram_bin_count: 2 },
    expected: [
      { breakdown_value: '[1.0,3.0]', data: [3] },
      { breakdown_value: '[3.0,5.01]', data: [2] },
      { breakdown_value: '["",""]', data: [1] },
    ],
    why: 'min 1, max 5, 2 bins: edges 1, 3, 5; bins [1, 3) and [3, 5.01). 1, 2, 2.5 -> first (3); 4, 5 -> second (2); "abc" -> the no-bin value (1). Floats print as Python does.',
  },
  {
    name: 'breakdown_normalize_url strips trailing /, ? and #',
    data: {
      project: UTC,
      now: NOW,
      persons: {},
      events: ['https://x.io/a/', 'https://x.io/a', 'https://x.io/a?', 'https://x.io/b#'].map((u, i) =>
        ev('$pageview', 'u1', `2024-01-01T10:0${i}:00Z`, { $current_url: u }),
      ),
    },
    params: { events: [{ id: '$pageview' }], ...JAN_1, breakdown: '$current_url', breakdown_normalize_url: true },
    expected: [
      { breakdown_value: 'https://x.io/a', data: [3] },
      { breakdown_value: 'https://x.io/b', data: [1] },
    ],
    why: 'The three spellings of /a become one value (3); /b# becomes /b (1).',
  },
  {
    name: 'breakdown_hide_other_aggregation drops Other',
    data: { project: UTC, now: NOW, persons: {}, events: browsers('$pageview', 'Chrome', 'Chrome', 'Safari') },
    params: { events: [{ id: '$pageview' }], ...JAN_1, breakdown: '$browser', breakdown_limit: 1, breakdown_hide_other_aggregation: true },
    expected: [{ breakdown_value: 'Chrome', data: [2] }],
    why: 'Limit 1 keeps Chrome (2); Safari would be Other, which is hidden.',
  },
  {
    name: 'unique_session breakdown: a value whose events carry no session is a row of zeros',
    data: {
      project: UTC,
      now: NOW,
      persons: {},
      events: [
        ev('$pageview', 'u1', '2024-01-01T10:00:00Z', { $browser: 'Chrome', $session_id: 's1' }),
        ev('$pageview', 'u1', '2024-01-01T11:00:00Z', { $browser: 'Chrome', $session_id: 's1' }),
        ev('$pageview', 'u2', '2024-01-01T12:00:00Z', { $browser: 'Chrome', $session_id: 's2' }),
        ev('$pageview', 'u1', '2024-01-02T10:00:00Z', { $browser: 'Chrome', $session_id: 's3' }),
        ev('$pageview', 'u3', '2024-01-01T13:00:00Z', { $browser: 'Safari' }),
        ev('$pageview', 'u3', '2024-01-02T11:00:00Z', { $browser: 'Safari', $session_id: '' }),
      ],
    },
    params: { events: [{ id: '$pageview', math: 'unique_session' }], date_from: '2024-01-01', date_to: '2024-01-02', breakdown: '$browser' },
    expected: [
      { breakdown_value: 'Chrome', label: 'Chrome', data: [2, 1], count: 3 },
      { breakdown_value: 'Safari', label: 'Safari', data: [0, 0], count: 0 },
    ],
    why: "Chrome: Jan 1 sessions s1 (twice) and s2 = 2, Jan 2 s3 = 1. Safari's events have a missing and an empty $session_id, which count no session, but they make Safari a breakdown value (PostHog groups the events by value and counts distinct non-empty session ids in each group): a row of zeros, ranked after Chrome on its total.",
  },
]
