/**
 * Worked examples of displays (reference §5 cumulative, §6): time-series
 * displays, cumulative, and the total-value displays. Derived by hand.
 */
import { ev, personsOf, UTC, type TrendExample, type TrendExampleData } from './trend-example-data.js'

const NOW = '2024-01-20T12:00:00Z'
const PERSONS = personsOf({ p1: [['x1']], p2: [['x2']], p3: [['x3']], p4: [['x4']] })
const SIMPLE: TrendExampleData = {
  project: UTC,
  now: NOW,
  persons: {},
  events: [ev('$pageview', 'u1', '2024-01-01T10:00:00Z'), ev('$pageview', 'u1', '2024-01-01T11:00:00Z'), ev('$pageview', 'u2', '2024-01-02T10:00:00Z')],
}
const plain = (display: string): TrendExample => ({
  name: `${display} is a time series like the line graph`,
  data: SIMPLE,
  params: { events: [{ id: '$pageview' }], date_from: '2024-01-01', date_to: '2024-01-02', display },
  expected: [{ data: [2, 1], count: 3, days: ['2024-01-01', '2024-01-02'], labels: ['1-Jan-2024', '2-Jan-2024'], aggregated_value: undefined }],
  why: 'Two events on Jan 1 and one on Jan 2, shown per day whatever the chart type.',
})

export const DISPLAY_EXAMPLES: TrendExample[] = [
  plain('ActionsBar'),
  plain('ActionsAreaGraph'),
  plain('ActionsStackedBar'),
  { ...plain('NotADisplay'), name: 'an unknown display is the line graph' },
  {
    name: 'cumulative: total is a running sum, dau counts each person once where first seen',
    data: {
      project: UTC,
      now: NOW,
      persons: PERSONS,
      events: [
        ev('$pageview', 'x1', '2024-01-01T10:00:00Z'),
        ev('$pageview', 'x2', '2024-01-01T11:00:00Z'),
        ev('$pageview', 'x1', '2024-01-02T10:00:00Z'),
        ev('$pageview', 'x3', '2024-01-04T10:00:00Z'),
        ev('$pageview', 'x1', '2024-01-04T11:00:00Z'),
      ],
    },
    params: { events: [{ id: '$pageview' }, { id: '$pageview', math: 'dau' }], date_from: '2024-01-01', date_to: '2024-01-04', display: 'ActionsLineGraphCumulative' },
    expected: [
      { data: [2, 3, 3, 5], count: 5 },
      { data: [2, 2, 2, 3], count: 3 },
    ],
    why: 'Per day totals 2, 1, 0, 2 accumulate to 2, 3, 3, 5; count is the last value. Persons first seen: p1 and p2 on Jan 1, p3 on Jan 4: 2, 2, 2, 3 (not 2, 3, 3, 5, the running sum of daily uniques).',
  },
  {
    name: 'cumulative weekly_active, monthly_active and unique_session are running sums',
    data: {
      project: UTC,
      now: NOW,
      persons: PERSONS,
      events: [ev('$pageview', 'x1', '2024-01-01T10:00:00Z', { $session_id: 's1' }), ev('$pageview', 'x1', '2024-01-02T10:00:00Z', { $session_id: 's1' })],
    },
    params: {
      events: ['weekly_active', 'monthly_active', 'unique_session'].map((math) => ({ id: '$pageview', math })),
      date_from: '2024-01-01',
      date_to: '2024-01-03',
      display: 'ActionsLineGraphCumulative',
    },
    expected: [
      { data: [1, 2, 3], count: 3 },
      { data: [1, 2, 3], count: 3 },
      { data: [1, 2, 2], count: 2 },
    ],
    why: "PostHog counts each actor once only for dau and unique_group (trends_query_builder.py: math == 'unique_group' or math == 'dau' groups by actor with min(day_start)); other maths get display.py's sum() OVER (ORDER BY day_start). p1 is in every 7- and 30-day window: 1, 1, 1 -> 1, 2, 3. Session s1 per day: 1, 1, 0 -> 1, 2, 2 (first appearances would give 1, 1, 1).",
  },
  {
    name: 'cumulative weekly_active with a week interval is dau: first appearances',
    data: {
      project: UTC,
      now: NOW,
      persons: PERSONS,
      events: [ev('$pageview', 'x1', '2024-01-08T10:00:00Z'), ev('$pageview', 'x1', '2024-01-15T10:00:00Z'), ev('$pageview', 'x2', '2024-01-16T10:00:00Z')],
    },
    params: { events: [{ id: '$pageview', math: 'weekly_active' }], date_from: '2024-01-07', date_to: '2024-01-20', interval: 'week', display: 'ActionsLineGraphCumulative' },
    expected: [{ data: [1, 2], count: 2 }],
    why: "TrendsQueryRunner's convert_active_user_math_based_on_interval sets math to dau for week and longer intervals, so the builder's cumulative dau branch applies: p1 first seen in the week of Jan 7, p2 in the week of Jan 14: 1, 2 (the running sum of weekly uniques would be 1, 3).",
  },
  {
    name: 'cumulative unique_group: two groups first seen on the third and sixth days',
    data: {
      project: UTC,
      now: NOW,
      persons: {},
      events: [
        ev('$pageview', 'u1', '2024-01-01T10:00:00Z'),
        ev('$pageview', 'u1', '2024-01-03T10:00:00Z', {}, { 0: 'orgA' }),
        ev('$pageview', 'u1', '2024-01-04T10:00:00Z', {}, { 0: 'orgA' }),
        ev('$pageview', 'u1', '2024-01-06T10:00:00Z', {}, { 0: 'orgB' }),
        ev('$pageview', 'u1', '2024-01-08T10:00:00Z', {}, { 0: 'orgA' }),
      ],
    },
    params: {
      events: [{ id: '$pageview', math: 'unique_group', math_group_type_index: 0 }],
      date_from: '2024-01-01',
      date_to: '2024-01-08',
      display: 'ActionsLineGraphCumulative',
    },
    expected: [{ data: [0, 0, 1, 1, 1, 2, 2, 2], count: 2 }],
    why: "The reference document's own example: orgA first appears Jan 3, orgB Jan 6; later events of orgA add nothing; the event without a group adds nothing.",
  },
  {
    name: 'ActionsPie: dau once over the whole range, no labels',
    data: {
      project: UTC,
      now: NOW,
      persons: PERSONS,
      events: [ev('$pageview', 'x1', '2024-01-01T10:00:00Z'), ev('$pageview', 'x1', '2024-01-02T10:00:00Z'), ev('$pageview', 'x2', '2024-01-02T11:00:00Z')],
    },
    params: { events: [{ id: '$pageview', math: 'dau' }], date_from: '2024-01-01', date_to: '2024-01-02', display: 'ActionsPie' },
    expected: [{ aggregated_value: 2, data: [], days: [], count: 0, labels: undefined, label: '$pageview' }],
    why: 'Distinct persons over Jan 1-2: p1 and p2 = 2 (the sum of daily uniques would be 3). Total-value rows carry empty data and days, count 0, and no labels key.',
  },
  {
    name: 'ActionsTable: the median of all values in the range, not of daily medians',
    data: {
      project: UTC,
      now: NOW,
      persons: {},
      events: [
        ev('purchase', 'u1', '2024-01-01T10:00:00Z', { amount: 1 }),
        ev('purchase', 'u1', '2024-01-01T11:00:00Z', { amount: 2 }),
        ev('purchase', 'u1', '2024-01-02T10:00:00Z', { amount: 10 }),
      ],
    },
    params: { events: [{ id: 'purchase', math: 'median', math_property: 'amount' }], date_from: '2024-01-01', date_to: '2024-01-02', display: 'ActionsTable' },
    expected: [{ aggregated_value: 2, count: 0, data: [] }],
    why: 'Median of 1, 2, 10 is 2 (daily medians would be 1.5 and 10).',
  },
  {
    name: 'ActionsTable weekly_active: persons in the 7 days ending at date_to',
    data: {
      project: UTC,
      now: NOW,
      persons: PERSONS,
      events: [
        ev('$pageview', 'x1', '2024-01-02T10:00:00Z'),
        ev('$pageview', 'x4', '2024-01-13T23:59:59Z'),
        ev('$pageview', 'x2', '2024-01-14T00:00:00Z'),
        ev('$pageview', 'x3', '2024-01-20T10:00:00Z'),
      ],
    },
    params: { events: [{ id: '$pageview', math: 'weekly_active' }], date_from: '2024-01-01', date_to: '2024-01-20', display: 'ActionsTable' },
    expected: [{ aggregated_value: 2 }],
    why: 'date_to is Jan 20 23:59:59.999999; its 7 days are Jan 14 00:00 .. Jan 20: p2 and p3. p1 (Jan 2) and p4 (Jan 13 23:59:59) are in range but outside the week.',
  },
  {
    name: 'BoldNumber: the exact range, now - 7 days to now',
    data: {
      project: UTC,
      now: '2024-01-10T12:00:00Z',
      persons: {},
      events: [
        ev('$pageview', 'u1', '2024-01-03T11:59:59Z'),
        ev('$pageview', 'u1', '2024-01-03T12:00:00Z'),
        ev('$pageview', 'u1', '2024-01-10T12:00:00Z'),
        ev('$pageview', 'u1', '2024-01-10T12:00:01Z'),
      ],
    },
    params: { events: [{ id: '$pageview' }], date_from: '-7d', display: 'BoldNumber' },
    expected: [{ aggregated_value: 2, data: [], count: 0 }],
    why: 'Exact range Jan 3 12:00:00 .. Jan 10 12:00:00 (no truncation to the day, no extension to its end): the events at 12:00:00 on both days count; 11:59:59 on Jan 3 and 12:00:01 on Jan 10 do not.',
  },
  {
    name: 'WorldMap: by $geoip_country_code, null last',
    data: {
      project: UTC,
      now: NOW,
      persons: {},
      events: [
        ev('$pageview', 'u1', '2024-01-01T10:00:00Z', { $geoip_country_code: 'GB' }),
        ev('$pageview', 'u2', '2024-01-01T11:00:00Z', { $geoip_country_code: 'US' }),
        ev('$pageview', 'u3', '2024-01-01T12:00:00Z', { $geoip_country_code: 'US' }),
        ev('$pageview', 'u4', '2024-01-01T13:00:00Z'),
        ev('$pageview', 'u5', '2024-01-01T14:00:00Z'),
        ev('$pageview', 'u6', '2024-01-01T15:00:00Z'),
      ],
    },
    params: { events: [{ id: '$pageview' }], date_from: '2024-01-01', date_to: '2024-01-01', display: 'WorldMap' },
    expected: [
      { breakdown_value: 'US', label: 'US', aggregated_value: 2 },
      { breakdown_value: 'GB', label: 'GB', aggregated_value: 1 },
      { breakdown_value: '$$_posthog_breakdown_null_$$', aggregated_value: 3 },
    ],
    why: 'US 2, GB 1, no country 3. Real values first by total (US, GB), then the null row even though it is the largest.',
  },
  {
    name: 'ActionsBarValue with breakdown_limit 2: Chrome, Firefox, Other',
    data: {
      project: UTC,
      now: NOW,
      persons: {},
      events: [...['Chrome', 'Chrome', 'Chrome', 'Firefox', 'Firefox', 'Safari', 'Edge']].map((b, i) => ev('$pageview', `u${i}`, '2024-01-01T10:00:00Z', { $browser: b })),
    },
    params: { events: [{ id: '$pageview' }], date_from: '2024-01-01', date_to: '2024-01-01', display: 'ActionsBarValue', breakdown: '$browser', breakdown_limit: 2 },
    expected: [
      { breakdown_value: 'Chrome', aggregated_value: 3 },
      { breakdown_value: 'Firefox', aggregated_value: 2 },
      { breakdown_value: '$$_posthog_breakdown_other_$$', aggregated_value: 2 },
    ],
    why: "Chrome 3 and Firefox 2 are the top two; Safari 1 and Edge 1 fold into Other = 2, placed last.",
  },
]
