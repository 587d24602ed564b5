/**
 * Worked examples of formulas and compare (reference §8, §9). Derived by hand.
 */
import { ev, UTC, type TrendExample, type TrendExampleData } from './trend-example-data.js'

const at = (event: string, day: string, n: number, props: Record<string, unknown> = {}) =>
  Array.from({ length: n }, (_, i) => ev(event, `u${i}`, `${day}T1${i % 10}:00:00Z`, props))
const THREE_DAYS: TrendExampleData = {
  project: UTC,
  now: '2024-01-10T12:00:00Z',
  persons: {},
  events: [...at('$pageview', '2024-01-01', 4), ...at('$pageview', '2024-01-03', 3), ...at('signup', '2024-01-01', 2)],
}
const NULL = '$$_posthog_breakdown_null_$$'
const A_AND_B = { events: [{ id: '$pageview' }, { id: 'signup' }], date_from: '2024-01-01', date_to: '2024-01-03' }
const days = (first: string, n: number) => Array.from({ length: n }, (_, i) => new Date(Date.parse(`${first}T00:00:00Z`) + i * 86_400_000).toISOString().slice(0, 10))
const hours = (day: string, n: number) => Array.from({ length: n }, (_, h) => `${day} ${String(h).padStart(2, '0')}:00:00`)

export const FORMULA_EXAMPLES: TrendExample[] = [
  {
    name: 'formula: arithmetic bucket by bucket, x/0 is 0',
    data: THREE_DAYS,
    params: { ...A_AND_B, formula: '(A + B) * 2 - A / B' },
    expected: [{ data: [10, 0, 6], count: 16, label: 'Formula ((A + B) * 2 - A / B)', action: null, days: ['2024-01-01', '2024-01-02', '2024-01-03'] }],
    why: 'A = [4, 0, 3], B = [2, 0, 0]. Jan 1: 6*2 - 4/2 = 10. Jan 2: 0 - 0/0 = 0. Jan 3: 3*2 - 3/0 = 6 - 0 = 6. Only the formula row is returned.',
  },
  {
    name: 'formula: lower-case letters, constants, A/0',
    data: THREE_DAYS,
    params: { ...A_AND_B, formula: 'a / 0 + b * 1.5' },
    expected: [{ data: [3, 0, 0], count: 3, label: 'Formula (a / 0 + b * 1.5)' }],
    why: 'a/0 is 0 everywhere; b*1.5 = [3, 0, 0].',
  },
  {
    name: 'formula: unary minus and nested parentheses',
    data: THREE_DAYS,
    params: { ...A_AND_B, formula: '-(A - B) + 10' },
    expected: [{ data: [8, 10, 7], count: 25 }],
    why: 'A - B = [2, 0, 3]; negated plus 10 = [8, 10, 7].',
  },
  {
    name: 'formula with a breakdown: rows matched by value, a value A lacks sorts as 0',
    data: {
      project: UTC,
      now: '2024-01-10T12:00:00Z',
      persons: {},
      events: [
        ...at('$pageview', '2024-01-01', 3, { $browser: 'Chrome' }),
        ...at('$pageview', '2024-01-01', 1, { $browser: 'Safari' }),
        ...at('signup', '2024-01-01', 1, { $browser: 'Chrome' }),
        ...at('signup', '2024-01-01', 2, { $browser: 'Firefox' }),
      ],
    },
    params: { events: [{ id: '$pageview' }, { id: 'signup' }], date_from: '2024-01-01', date_to: '2024-01-01', breakdown: '$browser', formula: 'A + B' },
    expected: [
      { breakdown_value: 'Chrome', data: [4], label: 'Formula (A + B)' },
      { breakdown_value: 'Safari', data: [1] },
      { breakdown_value: 'Firefox', data: [2] },
    ],
    why: 'A: Chrome 3, Safari 1. B: Chrome 1, Firefox 2. Chrome 3+1 = 4, Safari 1+0 = 1, Firefox 0+2 = 2. Firefox is missing from A, so it sorts with total 0, after Safari (the quirk of §8).',
  },
  {
    name: 'formula with a breakdown: equal totals order by data, then value, descending',
    data: {
      project: UTC,
      now: '2024-01-10T12:00:00Z',
      persons: {},
      events: [
        ev('$pageview', 'u1', '2024-01-01T10:00:00Z', { $browser: 'Chrome' }),
        ev('$pageview', 'u2', '2024-01-01T10:00:00Z', { $browser: 'Safari' }),
        ev('$pageview', 'u3', '2024-01-02T10:00:00Z', { $browser: 'Edge' }),
      ],
    },
    params: { events: [{ id: '$pageview' }], date_from: '2024-01-01', date_to: '2024-01-02', breakdown: '$browser', formula: 'A * 2' },
    expected: [
      { breakdown_value: 'Safari', data: [2, 0], count: 2 },
      { breakdown_value: 'Chrome', data: [2, 0], count: 2 },
      { breakdown_value: 'Edge', data: [0, 2], count: 2 },
    ],
    why: "apply_formula returns sorted(rows, key=(bucket, total, count, data, repr(breakdown_value)), reverse=True). Every total and count is 2; data [2, 0] > [0, 2] puts Edge last; Safari and Chrome tie on data, and 'Safari' > 'Chrome', descending.",
  },
  {
    name: 'formula with a breakdown on a total-value display: a value A lacks sorts by its own value; null after real values',
    data: {
      project: UTC,
      now: '2024-01-10T12:00:00Z',
      persons: {},
      events: [
        ev('$pageview', 'u1', '2024-01-01T10:00:00Z', { $browser: 'Chrome' }),
        ev('$pageview', 'u2', '2024-01-01T10:00:00Z', { $browser: 'Safari' }),
        ev('$pageview', 'u3', '2024-01-01T10:00:00Z'),
        ...at('signup', '2024-01-01', 3, { $browser: 'Firefox' }),
      ],
    },
    params: { events: [{ id: '$pageview' }, { id: 'signup' }], date_from: '2024-01-01', date_to: '2024-01-01', breakdown: '$browser', formula: 'A + B', display: 'ActionsPie' },
    expected: [
      { breakdown_value: 'Firefox', aggregated_value: 3, data: null, count: 0 },
      { breakdown_value: 'Safari', aggregated_value: 1 },
      { breakdown_value: 'Chrome', aggregated_value: 1 },
      { breakdown_value: NULL, aggregated_value: 1 },
    ],
    why: "A: Chrome 1, Safari 1, null 1; B: Firefox 3. On a total-value display apply_formula_to_results_group writes the formula's aggregated_value onto the row, the filler for Firefox too, so Firefox sorts by 3 (no §8 quirk). Then Safari and Chrome (1 each, repr descending), then null (bucket -1).",
  },
  {
    name: 'formula on a total-value display: over aggregated values, data null',
    data: THREE_DAYS,
    params: { ...A_AND_B, formula: 'A + B', display: 'ActionsPie' },
    expected: [{ aggregated_value: 9, data: null, count: 0, action: null, label: 'Formula (A + B)' }],
    why: 'A over the range: 7 pageviews; B: 2 signups; 7 + 2 = 9.',
  },
  {
    name: 'formula with compare: the formula per period, current first',
    data: {
      project: UTC,
      now: '2020-01-20T12:00:00Z',
      persons: {},
      events: [...at('$pageview', '2020-01-13', 1), ...at('$pageview', '2020-01-16', 2)],
    },
    params: { events: [{ id: '$pageview' }], date_from: '2020-01-15', date_to: '2020-01-16', compare: true, formula: 'A * 2' },
    expected: [
      { data: [0, 4], compare: true, compare_label: 'current', days: ['2020-01-15', '2020-01-16'] },
      { data: [2, 0], compare: true, compare_label: 'previous', days: ['2020-01-13', '2020-01-14'] },
    ],
    why: 'Current Jan 15-16: A = [0, 2]. D = 1 day 23:59:59.999999, so the previous period is Jan 13-14: A = [1, 0]. Doubled.',
  },
  {
    name: 'formula with compare and a breakdown: rows by count alone, ties in natural order',
    data: {
      project: UTC,
      now: '2020-01-20T12:00:00Z',
      persons: {},
      events: [
        ev('$pageview', 'u1', '2020-01-16T10:00:00Z'),
        ev('$pageview', 'u2', '2020-01-16T11:00:00Z'),
        ev('$pageview', 'u3', '2020-01-16T12:00:00Z', { $browser: 'B10' }),
        ev('$pageview', 'u4', '2020-01-16T13:00:00Z', { $browser: 'b2' }),
        ev('$pageview', 'u5', '2020-01-13T10:00:00Z', { $browser: 'B10' }),
      ],
    },
    params: { events: [{ id: '$pageview' }], date_from: '2020-01-15', date_to: '2020-01-16', compare: true, breakdown: '$browser', formula: 'A * 1' },
    expected: [
      { breakdown_value: NULL, data: [0, 2], count: 2, compare_label: 'current', label: 'Formula (A * 1)' },
      { breakdown_value: 'b2', data: [0, 1], count: 1, compare_label: 'current' },
      { breakdown_value: 'B10', data: [0, 1], count: 1, compare_label: 'current' },
      { breakdown_value: 'B10', data: [1, 0], count: 1, compare_label: 'previous' },
    ],
    why: "With compare, apply_formula builds rows in natsorted(values, alg=ns.IGNORECASE) order ($$_posthog_breakdown_null_$$, b2, B10: '$' < 'b', then 2 < 10) and returns multisort(rows, compare_label, count descending), with no null bucket. Current Jan 15-16: null 2, b2 1, B10 1. Previous Jan 13-14: B10 1.",
  },
  {
    name: 'compare -7d: eight days each, the previous ending on the current first day',
    data: {
      project: UTC,
      now: '2020-01-04T13:00:00Z',
      persons: {},
      events: [
        ev('$pageview', 'u1', '2019-12-20T23:00:00Z'),
        ev('$pageview', 'u1', '2019-12-21T10:00:00Z'),
        ev('$pageview', 'u1', '2019-12-28T10:00:00Z'),
        ev('$pageview', 'u2', '2019-12-28T11:00:00Z'),
        ev('$pageview', 'u1', '2020-01-04T10:00:00Z'),
      ],
    },
    params: { events: [{ id: '$pageview' }], date_from: '-7d', compare: true },
    expected: [
      { data: [2, 0, 0, 0, 0, 0, 0, 1], count: 3, compare: true, compare_label: 'current', days: days('2019-12-28', 8), label: '$pageview' },
      { data: [1, 0, 0, 0, 0, 0, 0, 2], count: 3, compare: true, compare_label: 'previous', days: days('2019-12-21', 8), label: '$pageview' },
    ],
    why: "Current: Dec 28 .. Jan 4 (8 days). Previous: Dec 28 - 7d23:59:59.999999 = Dec 20 on Dec 28's time (00:00), plus the -7d kludge's day: Dec 21 .. Dec 28. Dec 28 has 2 events in both; Dec 20 is in neither.",
  },
  {
    name: 'compare with a breakdown: values computed per period',
    data: {
      project: UTC,
      now: '2020-01-25T12:00:00Z',
      persons: {},
      events: [
        ev('$pageview', 'u1', '2020-01-15T10:00:00Z', { $browser: 'Chrome' }),
        ev('$pageview', 'u1', '2020-01-09T10:00:00Z', { $browser: 'Safari' }),
        ev('$pageview', 'u1', '2020-01-14T23:59:00Z', { $browser: 'Safari' }),
      ],
    },
    params: { events: [{ id: '$pageview' }], date_from: '2020-01-15', date_to: '2020-01-20', compare: true, breakdown: '$browser' },
    expected: [
      { breakdown_value: 'Chrome', data: [1, 0, 0, 0, 0, 0], compare_label: 'current', days: days('2020-01-15', 6) },
      { breakdown_value: 'Safari', data: [1, 0, 0, 0, 0, 1], compare_label: 'previous', days: days('2020-01-09', 6) },
    ],
    why: 'Current Jan 15-20 has only Chrome. Previous: Jan 15 - 5d23:59:59.999999 -> Jan 9 .. Jan 14, with Safari on the 9th and the 14th.',
  },
  {
    name: 'compare with dStart and an hour interval',
    data: {
      project: UTC,
      now: '2020-01-02T20:17:00Z',
      persons: {},
      events: [
        ev('$pageview', 'u1', '2020-01-01T20:30:00Z'),
        ev('$pageview', 'u1', '2020-01-01T21:00:00Z'),
        ev('$pageview', 'u1', '2020-01-02T00:10:00Z'),
        ev('$pageview', 'u1', '2020-01-02T20:16:00Z'),
      ],
    },
    params: { events: [{ id: '$pageview' }], date_from: 'dStart', interval: 'hour', compare: true },
    expected: [
      { data: [1, ...Array(19).fill(0), 1], days: hours('2020-01-02', 21), compare_label: 'current' },
      { data: [...Array(20).fill(0), 1], days: hours('2020-01-01', 21), compare_label: 'previous' },
    ],
    why: 'Current Jan 2 00:00 .. 20:59:59.999999 (end of the current hour): 21 buckets, events at 00:10 and 20:16. Previous Jan 1 00:00 .. 20:59:59.999999: the 20:30 event in the last bucket; 21:00 is outside.',
  },
  {
    name: 'compare_to -1w moves the period back one week',
    data: {
      project: UTC,
      now: '2024-01-20T12:00:00Z',
      persons: {},
      events: [...at('$pageview', '2024-01-01', 1), ...at('$pageview', '2024-01-02', 2), ...at('$pageview', '2024-01-06', 5), ...at('$pageview', '2024-01-08', 1)],
    },
    params: { events: [{ id: '$pageview' }], date_from: '2024-01-08', date_to: '2024-01-09', compare: true, compare_to: '-1w' },
    expected: [
      { data: [1, 0], compare_label: 'current', days: ['2024-01-08', '2024-01-09'] },
      { data: [1, 2], compare_label: 'previous', days: ['2024-01-01', '2024-01-02'] },
    ],
    why: 'Previous date_from = Jan 8 - 1 week = Jan 1, date_to = that + D = Jan 2 23:59:59.999999. (Plain compare would give Jan 6-7, where the 5 events of Jan 6 would show.)',
  },
]
