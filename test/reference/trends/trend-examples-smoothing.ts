/**
 * Worked examples of `smoothing_intervals` (PostHog's rolling average:
 * floor of the mean of a point and the n-1 before it, fewer at the start of
 * the range, nothing before the range read). Expected values worked out by hand.
 */
import { ev, UTC, type TrendExample } from './trend-example-data.js'

const OTHER = '$$_posthog_breakdown_other_$$'
const PAGEVIEW = { events: [{ id: '$pageview' }] }
const NOW = '2024-01-10T12:00:00Z'
/** `count` pageviews at `timestamp`, one distinct id each. */
const many = (count: number, timestamp: string, properties: Record<string, unknown> = {}) =>
  Array.from({ length: count }, (_, i) => ev('$pageview', `u${timestamp}${i}`, timestamp, properties))

export const SMOOTHING_EXAMPLES: TrendExample[] = [
  {
    name: 'smoothing: floor of the mean over the last 3 days, fewer at the start, nothing before date_from',
    data: {
      project: UTC,
      now: NOW,
      persons: {},
      events: [
        ...many(1, '2023-12-31T12:00:00Z'),
        ...many(3, '2024-01-01T10:00:00Z'),
        ...many(4, '2024-01-03T10:00:00Z'),
        ...many(1, '2024-01-04T10:00:00Z'),
        ...many(6, '2024-01-07T10:00:00Z'),
      ],
    },
    params: { ...PAGEVIEW, date_from: '2024-01-01', date_to: '2024-01-07', smoothing_intervals: 3 },
    expected: [{ data: [3, 1, 2, 1, 1, 0, 2], count: 10 }],
    why:
      'Daily counts 3,0,4,1,0,0,6. Jan 1 averages itself alone: 3 (the Dec 31 event is before the range and never read, else (1+3)/2 = 2). ' +
      'Jan 2: (3+0)/2 = 1.5 -> 1. Jan 3: (3+0+4)/3 = 2.33 -> 2. Jan 4: (0+4+1)/3 -> 1. Jan 5: (4+1+0)/3 -> 1. Jan 6: (1+0+0)/3 -> 0. Jan 7: (0+0+6)/3 = 2. count sums the smoothed points: 10.',
  },
  {
    name: 'smoothing: the cumulative line is smoothed as shown',
    data: {
      project: UTC,
      now: NOW,
      persons: {},
      events: [...many(2, '2024-01-01T10:00:00Z'), ...many(1, '2024-01-03T10:00:00Z'), ...many(3, '2024-01-04T10:00:00Z')],
    },
    params: { ...PAGEVIEW, display: 'ActionsLineGraphCumulative', date_from: '2024-01-01', date_to: '2024-01-04', smoothing_intervals: 2 },
    expected: [{ data: [2, 2, 2, 4], count: 4 }],
    why:
      'Counts 2,0,1,3 accumulate to 2,2,3,6; PostHog smooths that array: 2, (2+2)/2 = 2, (2+3)/2 = 2.5 -> 2, (3+6)/2 = 4.5 -> 4. ' +
      '(Smoothing first and accumulating after would give 2,3,3,5.) A cumulative count is its last point.',
  },
  {
    name: 'smoothing: a fractional math is floored too, even where the window holds one point',
    data: {
      project: UTC,
      now: NOW,
      persons: {},
      events: [
        ev('$pageview', 'a', '2024-01-01T10:00:00Z', { amount: 1 }),
        ev('$pageview', 'b', '2024-01-01T11:00:00Z', { amount: 2 }),
        ev('$pageview', 'c', '2024-01-02T10:00:00Z', { amount: 4 }),
      ],
    },
    params: { events: [{ id: '$pageview', math: 'avg', math_property: 'amount' }], date_from: '2024-01-01', date_to: '2024-01-03', smoothing_intervals: 2 },
    expected: [{ data: [1, 2, 2], count: 5 }],
    why: 'Daily averages 1.5, 4, 0 (an empty day is 0). Smoothed: floor(1.5) = 1; (1.5+4)/2 = 2.75 -> 2; (4+0)/2 = 2.',
  },
  {
    name: 'smoothing: breakdown values ranked by their smoothed rows, Other the sum of the folded smoothed rows',
    data: {
      project: UTC,
      now: NOW,
      persons: {},
      events: [
        ...many(1, '2024-01-01T10:00:00Z', { $browser: 'Y' }),
        ...many(1, '2024-01-02T10:00:00Z', { $browser: 'X' }),
        ...many(1, '2024-01-04T10:00:00Z', { $browser: 'X' }),
        ...many(1, '2024-01-03T10:00:00Z', { $browser: 'Z' }),
      ],
    },
    params: { ...PAGEVIEW, breakdown: '$browser', breakdown_limit: 1, date_from: '2024-01-01', date_to: '2024-01-04', smoothing_intervals: 2 },
    expected: [
      { breakdown_value: 'Y', data: [1, 0, 0, 0], count: 1 },
      { breakdown_value: OTHER, data: [0, 0, 0, 0], count: 0 },
    ],
    why:
      'Rows: Y 1,0,0,0; X 0,1,0,1; Z 0,0,1,0. Smoothed over 2 days: Y 1,0,0,0 (sum 1); X 0,0,0,0 (each 1 is halved and floored); Z 0,0,0,0. ' +
      'Ranked by the smoothed sums Y keeps the one slot, although X has more events. Other adds the smoothed rows of X and Z: zeros ' +
      '(smoothing their summed counts 0,1,1,1 would give 0,0,1,1).',
  },
  {
    name: 'smoothing: each period of a comparison is smoothed over its own range',
    data: {
      project: UTC,
      now: NOW,
      persons: {},
      events: [...many(4, '2024-01-01T10:00:00Z'), ...many(2, '2024-01-02T10:00:00Z'), ...many(2, '2024-01-04T10:00:00Z')],
    },
    params: { ...PAGEVIEW, date_from: '2024-01-03', date_to: '2024-01-04', compare: true, smoothing_intervals: 2 },
    expected: [
      { compare_label: 'current', data: [0, 1], count: 1 },
      { compare_label: 'previous', data: [4, 3], count: 7 },
    ],
    why:
      'Current Jan 3-4 counts 0,2: 0, then (0+2)/2 = 1; Jan 2 is not read before Jan 3 (it would make the first point 1). ' +
      'Previous Jan 1-2 counts 4,2: 4, then (4+2)/2 = 3.',
  },
  {
    name: 'smoothing: total-value displays are not smoothed',
    data: { project: UTC, now: NOW, persons: {}, events: [...many(2, '2024-01-01T10:00:00Z'), ...many(1, '2024-01-03T10:00:00Z')] },
    params: { ...PAGEVIEW, display: 'ActionsTable', date_from: '2024-01-01', date_to: '2024-01-03', smoothing_intervals: 7 },
    expected: [{ aggregated_value: 3 }],
    why: 'PostHog smooths only time series (the total-value query has no rolling average): 3 pageviews in range.',
  },
]
