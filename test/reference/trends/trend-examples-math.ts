/**
 * Worked examples, one per math (reference §5). Every expected value was
 * worked out by hand from the events listed; the reasoning is in `why`.
 */
import { ev, personsOf, UTC, type TrendExample } from './trend-example-data.js'

const NOW = '2024-01-10T12:00:00Z'
const JAN_1_TO_3 = { date_from: '2024-01-01', date_to: '2024-01-03' }
const DAYS_1_TO_3 = { days: ['2024-01-01', '2024-01-02', '2024-01-03'], labels: ['1-Jan-2024', '2-Jan-2024', '3-Jan-2024'] }

export const MATH_EXAMPLES: TrendExample[] = [
  {
    name: 'total: matching events per day, both bounds inclusive to the microsecond',
    data: {
      project: UTC,
      now: NOW,
      persons: {},
      events: [
        ev('$pageview', 'u1', '2024-01-01T10:00:00Z'),
        ev('$pageview', 'u2', '2024-01-01T11:00:00Z'),
        ev('$pageview', 'u1', '2024-01-03T23:59:59.999999Z'),
        ev('$pageview', 'u1', '2023-12-31T23:59:59.999999Z'),
        ev('$pageview', 'u1', '2024-01-04T00:00:00Z'),
        ev('click', 'u1', '2024-01-02T10:00:00Z'),
      ],
    },
    params: { events: [{ id: '$pageview', type: 'events' }], ...JAN_1_TO_3 },
    expected: [{ data: [2, 0, 1], count: 3, label: '$pageview', ...DAYS_1_TO_3, breakdown_value: undefined, compare: undefined, aggregated_value: undefined }],
    why: 'A date-only date_to is extended to 23:59:59.999999, so the last microsecond of Jan 3 counts; Dec 31 and Jan 4 00:00 are outside; click is another event.',
  },
  {
    name: 'dau: distinct persons, two distinct ids of one person count once',
    data: {
      project: UTC,
      now: NOW,
      persons: personsOf({ p1: [['a1', 'a2']], p2: [['b1']] }),
      events: [
        ev('$pageview', 'a1', '2024-01-01T09:00:00Z'),
        ev('$pageview', 'a2', '2024-01-01T10:00:00Z'),
        ev('$pageview', 'b1', '2024-01-01T11:00:00Z'),
        ev('$pageview', 'a1', '2024-01-02T09:00:00Z'),
        ev('$pageview', 'a1', '2024-01-02T10:00:00Z'),
      ],
    },
    params: { events: [{ id: '$pageview', math: 'dau' }], ...JAN_1_TO_3 },
    expected: [{ data: [2, 1, 0], count: 3, ...DAYS_1_TO_3 }],
    why: 'Jan 1: a1 and a2 are p1, b1 is p2: 2. Jan 2: p1 twice: 1. Jan 3: none.',
  },
  {
    name: 'weekly_active: persons in the 7 days ending with each day, looking back before date_from',
    data: {
      project: UTC,
      now: '2024-01-12T12:00:00Z',
      persons: personsOf({ p1: [['x1']], p2: [['x2']], p3: [['x3']], p4: [['x4']] }),
      events: [
        ev('$pageview', 'x1', '2024-01-01T23:00:00Z'),
        ev('$pageview', 'x1', '2024-01-02T09:00:00Z'),
        ev('$pageview', 'x2', '2024-01-08T10:00:00Z'),
        ev('$pageview', 'x3', '2024-01-10T08:00:00Z'),
        ev('$pageview', 'x4', '2024-01-11T09:00:00Z'),
      ],
    },
    params: { events: [{ id: '$pageview', math: 'weekly_active' }], date_from: '2024-01-08', date_to: '2024-01-10' },
    expected: [{ data: [2, 1, 2], days: ['2024-01-08', '2024-01-09', '2024-01-10'] }],
    why: 'Jan 8 covers Jan 2..Jan 8: p1 (Jan 2 09:00, before date_from) and p2 = 2. Jan 9 covers Jan 3..9: p2 = 1. Jan 10 covers Jan 4..10: p2, p3 = 2. p1 on Jan 1 is in no window; p4 is after date_to.',
  },
  {
    name: 'weekly_active with a week interval is distinct persons per week, without look-back',
    data: {
      project: UTC,
      now: '2024-01-20T12:00:00Z',
      persons: personsOf({ p1: [['x1']], p2: [['x2']], p3: [['x3']] }),
      events: [
        ev('$pageview', 'x3', '2023-12-31T10:00:00Z'),
        ev('$pageview', 'x1', '2024-01-01T10:00:00Z'),
        ev('$pageview', 'x1', '2024-01-06T10:00:00Z'),
        ev('$pageview', 'x2', '2024-01-08T10:00:00Z'),
        ev('$pageview', 'x1', '2024-01-13T22:00:00Z'),
      ],
    },
    params: { events: [{ id: '$pageview', math: 'weekly_active' }], date_from: '2024-01-01', date_to: '2024-01-13', interval: 'week' },
    expected: [{ data: [1, 2], days: ['2023-12-31', '2024-01-07'], labels: ['1–6 Jan', '7–13 Jan'] }],
    why: 'Sunday weeks: Dec 31 and Jan 7. The range starts Jan 1 00:00 (a week interval rounds date_from to its day only), so p3 on Sunday Dec 31 is out. Week Dec 31: p1 = 1; week Jan 7: p2, p1 = 2. Labels clip each week to Jan 1..Jan 13.',
  },
  {
    name: 'monthly_active: the 30 days ending with each day, first day inclusive',
    data: {
      project: UTC,
      now: '2024-02-05T12:00:00Z',
      persons: personsOf({ p1: [['x1']], p2: [['x2']], p3: [['x3']], p5: [['x5']] }),
      events: [
        ev('$pageview', 'x1', '2024-01-02T23:59:59Z'),
        ev('$pageview', 'x5', '2024-01-03T00:00:00Z'),
        ev('$pageview', 'x1', '2024-01-03T12:00:00Z'),
        ev('$pageview', 'x2', '2024-01-04T00:00:00Z'),
        ev('$pageview', 'x3', '2024-02-02T12:00:00Z'),
      ],
    },
    params: { events: [{ id: '$pageview', math: 'monthly_active' }], date_from: '2024-02-01', date_to: '2024-02-02' },
    expected: [{ data: [3, 2], count: 5 }],
    why: 'Feb 1 covers Jan 3 00:00 .. Feb 1 end (30 days): p5 (at exactly Jan 3 00:00), p1 (Jan 3 12:00), p2 = 3. Feb 2 covers Jan 4 .. Feb 2: p2 (Jan 4 00:00), p3 = 2. p1 on Jan 2 is in neither.',
  },
  {
    name: 'unique_session: distinct non-empty $session_id',
    data: {
      project: UTC,
      now: NOW,
      persons: {},
      events: [
        ev('$pageview', 'u1', '2024-01-01T10:00:00Z', { $session_id: 's1' }),
        ev('$pageview', 'u2', '2024-01-01T11:00:00Z', { $session_id: 's1' }),
        ev('$pageview', 'u1', '2024-01-01T12:00:00Z', { $session_id: 's2' }),
        ev('$pageview', 'u1', '2024-01-01T13:00:00Z', { $session_id: '' }),
        ev('$pageview', 'u1', '2024-01-01T14:00:00Z'),
        ev('$pageview', 'u1', '2024-01-02T10:00:00Z', { $session_id: 's1' }),
      ],
    },
    params: { events: [{ id: '$pageview', math: 'unique_session' }], date_from: '2024-01-01', date_to: '2024-01-02' },
    expected: [{ data: [2, 1], count: 3 }],
    why: 'Jan 1: s1 and s2; the empty and the missing session ids are not counted. Jan 2: s1.',
  },
  {
    name: 'unique_group: distinct $group_0 keys, events without that group ignored',
    data: {
      project: UTC,
      now: NOW,
      persons: {},
      events: [
        ev('$pageview', 'u1', '2024-01-01T10:00:00Z', {}, { 0: 'org1' }),
        ev('$pageview', 'u2', '2024-01-01T11:00:00Z', {}, { 0: 'org1' }),
        ev('$pageview', 'u3', '2024-01-01T12:00:00Z', {}, { 0: 'org2' }),
        ev('$pageview', 'u4', '2024-01-01T13:00:00Z'),
        ev('$pageview', 'u1', '2024-01-02T10:00:00Z', {}, { 0: 'org3' }),
        ev('$pageview', 'u1', '2024-01-02T11:00:00Z', {}, { 1: 'x' }),
      ],
    },
    params: { events: [{ id: '$pageview', math: 'unique_group', math_group_type_index: 0 }], date_from: '2024-01-01', date_to: '2024-01-02' },
    expected: [{ data: [2, 1], count: 3 }],
    why: 'Jan 1: org1 (twice) and org2; the event without a group counts nothing. Jan 2: org3; a group of type 1 is not type 0.',
  },
  {
    name: "first_time_for_user: each person's first matching event, counted where it falls",
    data: {
      project: UTC,
      now: NOW,
      persons: personsOf({ p1: [['x1']], p2: [['x2']], p3: [['x3']], p4: [['x4']] }),
      events: [
        ev('purchase', 'x1', '2023-12-30T10:00:00Z', { valid: 'yes' }),
        ev('purchase', 'x1', '2024-01-02T10:00:00Z', { valid: 'yes' }),
        ev('purchase', 'x2', '2024-01-01T10:00:00Z', { valid: 'yes' }),
        ev('purchase', 'x2', '2024-01-02T11:00:00Z', { valid: 'yes' }),
        ev('purchase', 'x3', '2024-01-03T10:00:00Z', { valid: 'yes' }),
        ev('purchase', 'x4', '2024-01-01T09:00:00Z', { valid: 'no' }),
        ev('purchase', 'x4', '2024-01-02T09:00:00Z', { valid: 'yes' }),
      ],
    },
    params: { events: [{ id: 'purchase', math: 'first_time_for_user', properties: [{ key: 'valid', value: 'yes' }] }], ...JAN_1_TO_3 },
    expected: [{ data: [1, 1, 1], count: 3 }],
    why: "p1's first purchase is Dec 30, before the range: never counted. p2: Jan 1. p4's first matching purchase (valid=yes) is Jan 2. p3: Jan 3.",
  },
  {
    name: 'sum, avg, min, max over a property: non-numeric values ignored, an empty bucket is 0',
    data: {
      project: UTC,
      now: NOW,
      persons: {},
      events: [
        ev('purchase', 'u1', '2024-01-01T10:00:00Z', { amount: 10 }),
        ev('purchase', 'u1', '2024-01-01T10:01:00Z', { amount: '5.5' }),
        ev('purchase', 'u1', '2024-01-01T10:02:00Z', { amount: '-2' }),
        ev('purchase', 'u1', '2024-01-01T10:03:00Z', { amount: 'abc' }),
        ev('purchase', 'u1', '2024-01-01T10:04:00Z', { amount: null }),
        ev('purchase', 'u1', '2024-01-01T10:05:00Z', { amount: true }),
        ev('purchase', 'u1', '2024-01-01T10:06:00Z'),
        ev('purchase', 'u1', '2024-01-02T10:00:00Z', { amount: 'x' }),
      ],
    },
    params: {
      events: ['sum', 'avg', 'min', 'max'].map((math) => ({ id: 'purchase', math, math_property: 'amount' })),
      date_from: '2024-01-01',
      date_to: '2024-01-02',
    },
    expected: [
      { data: [13.5, 0], count: 13.5, label: 'purchase', action: { math: 'sum', math_property: 'amount', order: 0 } },
      { data: [4.5, 0], count: 4.5, label: 'purchase', action: { math: 'avg', order: 1 } },
      { data: [-2, 0], count: -2, action: { math: 'min', order: 2 } },
      { data: [10, 0], count: 10, action: { math: 'max', order: 3 } },
    ],
    why: "Jan 1's usable values are 10, 5.5 and -2 ('abc', null, true and a missing value are ignored): sum 13.5, avg 4.5, min -2, max 10. Jan 2 has no number: 0.",
  },
  {
    name: 'median and percentiles: linear interpolation at (n-1)q',
    data: {
      project: UTC,
      now: NOW,
      persons: {},
      events: [4, 1, 10, 3, 2, 'n/a'].map((amount, i) => ev('purchase', 'u1', `2024-01-01T10:0${i}:00Z`, { amount })),
    },
    params: {
      events: ['median', 'p75', 'p90', 'p95', 'p99'].map((math) => ({ id: 'purchase', math, math_property: 'amount' })),
      date_from: '2024-01-01',
      date_to: '2024-01-01',
    },
    expected: [{ data: [3] }, { data: [4] }, { data: [7.6] }, { data: [8.8] }, { data: [9.76] }],
    why: 'Sorted 1,2,3,4,10 (n-1 = 4). median: position 2 = 3. p75: position 3 = 4. p90: 3.6 -> 4 + 0.6*6 = 7.6. p95: 3.8 -> 4 + 0.8*6 = 8.8. p99: 3.96 -> 4 + 0.96*6 = 9.76.',
  },
  {
    name: 'count per actor: events per person, then aggregated',
    data: {
      project: UTC,
      now: NOW,
      persons: personsOf({ p1: [['x1']], p2: [['x2']], p3: [['x3']] }),
      events: [
        ...['09', '10', '11'].map((h) => ev('click', 'x1', `2024-01-01T${h}:00:00Z`)),
        ev('click', 'x2', '2024-01-01T09:00:00Z'),
        ev('click', 'x3', '2024-01-01T09:00:00Z'),
        ev('click', 'x3', '2024-01-01T10:00:00Z'),
        ev('click', 'x1', '2024-01-02T09:00:00Z'),
        ev('click', 'x1', '2024-01-02T10:00:00Z'),
        ev('click', 'x2', '2024-01-02T09:00:00Z'),
      ],
    },
    params: {
      events: ['avg', 'min', 'max', 'median', 'p90', 'p99'].map((m) => ({ id: 'click', math: `${m}_count_per_actor` })),
      date_from: '2024-01-01',
      date_to: '2024-01-02',
    },
    expected: [{ data: [2, 1.5] }, { data: [1, 1] }, { data: [3, 2] }, { data: [2, 1.5] }, { data: [2.8, 1.9] }, { data: [2.98, 1.99] }],
    why: 'Jan 1 counts per person: 3, 1, 2 (sorted 1,2,3): avg 2, min 1, max 3, median 2, p90 at 1.8 = 2.8, p99 at 1.98 = 2.98. Jan 2: 2 and 1 (3 events by 2 persons): avg 1.5, min 1, max 2, median 1.5, p90 at 0.9 = 1.9, p99 = 1.99.',
  },
]
