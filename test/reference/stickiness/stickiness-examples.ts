/**
 * Worked examples of stickiness (reference §11). Derived by hand.
 */
import { ev, personsOf, UTC, type TrendExample } from '../trends/trend-example-data.js'

const STICKINESS = { insight: 'STICKINESS', events: [{ id: '$pageview', math: 'total' }] }
const dayLabels = (n: number, unit: string) => Array.from({ length: n }, (_, k) => `${k + 1} ${unit}${k === 0 ? '' : 's'}`)

export const STICKINESS_EXAMPLES: TrendExample[] = [
  {
    name: 'stickiness, daily: persons active on exactly k days',
    data: {
      project: UTC,
      now: '2024-01-10T12:00:00Z',
      persons: personsOf({ p1: [['a1', 'a2']], p2: [['b1']], p3: [['c1']], p4: [['d1']] }),
      events: [
        ev('$pageview', 'a1', '2024-01-01T10:00:00Z'),
        ev('$pageview', 'a1', '2024-01-02T10:00:00Z'),
        ev('$pageview', 'a2', '2024-01-02T11:00:00Z'),
        ev('$pageview', 'a2', '2024-01-04T10:00:00Z'),
        ev('$pageview', 'b1', '2024-01-03T10:00:00Z'),
        ...['01', '02', '03', '04', '05'].map((d) => ev('$pageview', 'c1', `2024-01-${d}T10:00:00Z`)),
        ev('$pageview', 'd1', '2024-01-06T10:00:00Z'),
      ],
    },
    params: { ...STICKINESS, date_from: '2024-01-01', date_to: '2024-01-05' },
    expected: [
      {
        data: [1, 0, 1, 0, 1],
        count: 3,
        days: [1, 2, 3, 4, 5],
        labels: dayLabels(5, 'day'),
        label: '$pageview',
        action: { order: 0, type: 'events', id: '$pageview', name: '$pageview' },
      },
    ],
    why: 'p1 (a1 and a2) is active Jan 1, 2 (twice), 4: 3 days. p2: 1 day. p3: all 5. p4 only after the range. math "total" is read as dau.',
  },
  {
    name: "stickiness of an action: label and action.id are the action's name",
    data: {
      project: UTC,
      now: '2024-01-10T12:00:00Z',
      persons: personsOf({ p1: [['a1']], p2: [['b1']] }),
      actions: { 7: { name: 'Signed up', eventNames: ['signup'] } },
      events: [
        ev('signup', 'a1', '2024-01-01T10:00:00Z'),
        ev('signup', 'a1', '2024-01-02T10:00:00Z'),
        ev('signup', 'b1', '2024-01-02T10:00:00Z'),
        ev('login', 'b1', '2024-01-03T10:00:00Z'),
      ],
    },
    params: { insight: 'STICKINESS', actions: [{ id: 7, name: 'Signed up', type: 'actions' }], date_from: '2024-01-01', date_to: '2024-01-03' },
    expected: [{ data: [1, 1, 0], count: 2, label: 'Signed up', action: { order: 0, type: 'events', id: 'Signed up', name: 'Signed up' } }],
    why: "stickiness_query_runner writes series_event() (the action's name) as label, action.name and action.id. p1 signs up on 2 days, p2 on 1; the login is not the action.",
  },
  {
    name: 'stickiness, weekly over -30d: events from the start of the first week count',
    data: {
      project: UTC,
      now: '2020-01-23T12:00:00Z',
      persons: personsOf({ p1: [['x1']], p2: [['x2']], p3: [['x3']] }),
      events: [
        ev('$pageview', 'x3', '2019-12-21T23:00:00Z'),
        ev('$pageview', 'x1', '2019-12-22T10:00:00Z'),
        ev('$pageview', 'x2', '2019-12-23T10:00:00Z'),
        ev('$pageview', 'x1', '2020-01-20T10:00:00Z'),
      ],
    },
    params: { ...STICKINESS, date_from: '-30d', interval: 'week' },
    expected: [{ data: [1, 1, 0, 0, 0], count: 2, labels: dayLabels(5, 'week'), days: [1, 2, 3, 4, 5] }],
    why: "date_from = Dec 24 2019; Sunday weeks Dec 22, Dec 29, Jan 5, Jan 12, Jan 19: N = 5. Events from Dec 22 00:00 count (not only from Dec 24): p1 in weeks Dec 22 and Jan 19 (2), p2 in week Dec 22 (1). p3's Dec 21 is before.",
  },
  {
    name: 'stickiness, hourly with a date-only date_to: 25 buckets',
    data: {
      project: UTC,
      now: '2020-01-20T12:00:00Z',
      persons: personsOf({ p1: [['x1']], p2: [['x2']] }),
      events: [
        ev('$pageview', 'x1', '2020-01-11T05:00:00Z'),
        ev('$pageview', 'x1', '2020-01-11T05:30:00Z'),
        ev('$pageview', 'x1', '2020-01-11T06:10:00Z'),
        ev('$pageview', 'x1', '2020-01-12T00:30:00Z'),
        ev('$pageview', 'x2', '2020-01-12T00:00:00Z'),
      ],
    },
    params: { ...STICKINESS, date_from: '2020-01-11', date_to: '2020-01-12', interval: 'hour' },
    expected: [{ data: [1, 1, ...Array(23).fill(0)], count: 2, labels: dayLabels(25, 'hour') }],
    why: 'Jan 11 00:00 .. Jan 12 00:00 exactly: 25 hourly buckets. p1 in hours 05 and 06 (2); its 00:30 on Jan 12 is after date_to. p2 at exactly Jan 12 00:00 (1).',
  },
  {
    name: 'stickiness with compare: current, then previous',
    data: {
      project: UTC,
      now: '2020-01-25T12:00:00Z',
      persons: personsOf({ p1: [['x1']], p2: [['x2']], p3: [['x3']] }),
      events: [
        ev('$pageview', 'x1', '2020-01-15T10:00:00Z'),
        ev('$pageview', 'x1', '2020-01-16T10:00:00Z'),
        ev('$pageview', 'x2', '2020-01-10T10:00:00Z'),
        ev('$pageview', 'x3', '2020-01-14T10:00:00Z'),
        ev('$pageview', 'x3', '2020-01-15T11:00:00Z'),
      ],
    },
    params: { ...STICKINESS, date_from: '2020-01-15', date_to: '2020-01-20', compare: true },
    expected: [
      { data: [1, 1, 0, 0, 0, 0], count: 2, compare: true, compare_label: 'current' },
      { data: [2, 0, 0, 0, 0, 0], count: 2, compare: true, compare_label: 'previous' },
    ],
    why: 'Current Jan 15-20: p1 2 days, p3 1 day. Previous Jan 9-14: p2 (Jan 10) 1 day, p3 (Jan 14) 1 day.',
  },
  {
    name: 'stickiness by group: unique_group counts groups',
    data: {
      project: UTC,
      now: '2024-01-10T12:00:00Z',
      persons: {},
      events: [
        ev('$pageview', 'u1', '2024-01-01T10:00:00Z', {}, { 0: 'orgA' }),
        ev('$pageview', 'u2', '2024-01-02T10:00:00Z', {}, { 0: 'orgA' }),
        ev('$pageview', 'u3', '2024-01-02T11:00:00Z', {}, { 0: 'orgB' }),
        ev('$pageview', 'u4', '2024-01-03T10:00:00Z'),
      ],
    },
    params: { insight: 'STICKINESS', events: [{ id: '$pageview', math: 'unique_group', math_group_type_index: 0 }], date_from: '2024-01-01', date_to: '2024-01-03' },
    expected: [{ data: [1, 1, 0], count: 2 }],
    why: 'orgA on Jan 1 and 2 (by two persons): 2 days. orgB: 1 day. The event without a group counts for no one.',
  },
]
