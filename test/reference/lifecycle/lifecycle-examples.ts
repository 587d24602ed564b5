/**
 * Worked examples of lifecycle (reference §12). Derived by hand; each `why`
 * walks through every person.
 */
import { ev, NEW_YORK, personsOf, UTC, type TrendExample } from '../trends/trend-example-data.js'

const LIFECYCLE = { insight: 'LIFECYCLE', events: [{ id: '$pageview' }] }
const status = (s: string, data: number[], extra: Record<string, unknown> = {}) => ({
  status: s,
  label: `$pageview - ${s}`,
  data,
  count: data.reduce((a, b) => a + b, 0),
  ...extra,
})

export const LIFECYCLE_EXAMPLES: TrendExample[] = [
  {
    name: 'lifecycle, daily: new, returning, resurrecting, dormant',
    data: {
      project: UTC,
      now: '2024-01-10T12:00:00Z',
      persons: personsOf({ p1: [['x1']], p2: [['x2']], p3: [['x3']], p4: [['x4']], p5: [['x5']], p6: [['x6']] }),
      events: [
        ...['01', '02', '03', '05'].map((d) => ev('$pageview', 'x1', `2024-01-${d}T10:00:00Z`)),
        ev('$pageview', 'x2', '2024-01-03T10:00:00Z'),
        ev('$pageview', 'x2', '2024-01-04T10:00:00Z'),
        ev('$pageview', 'x3', '2023-12-20T10:00:00Z'),
        ev('$pageview', 'x3', '2024-01-02T10:00:00Z'),
        ev('other', 'x4', '2024-01-01T09:00:00Z'),
        ev('$pageview', 'x4', '2024-01-04T10:00:00Z'),
        ev('$pageview', 'x5', '2024-01-01T12:00:00Z'),
        ev('$pageview', 'x6', '2024-01-06T00:00:00Z'),
      ],
    },
    params: { ...LIFECYCLE, date_from: '2024-01-02', date_to: '2024-01-05' },
    expected: [
      status('new', [0, 1, 0, 0], { days: ['2024-01-02', '2024-01-03', '2024-01-04', '2024-01-05'], labels: ['2-Jan-2024', '3-Jan-2024', '4-Jan-2024', '5-Jan-2024'] }),
      status('returning', [1, 1, 1, 0]),
      status('resurrecting', [1, 0, 1, 1]),
      status('dormant', [-1, -1, -1, -2], { action: { id: '$pageview', type: 'events', order: 0, math: 'total' } }),
    ],
    why: [
      'Events read from Jan 1 (one day before) to the end of Jan 5.',
      'p1 (first event Jan 1): Jan 1 new (not reported), Jan 2 and 3 returning, dormant Jan 4, Jan 5 resurrecting.',
      'p2 (first event Jan 3): Jan 3 new, Jan 4 returning, dormant Jan 5.',
      'p3 (first event Dec 20, outside the window): Jan 2 resurrecting, dormant Jan 3.',
      'p4 (created by an "other" event on Jan 1): Jan 4 is not its first-ever interval: resurrecting, dormant Jan 5.',
      'p5: Jan 1 only: dormant Jan 2. p6: Jan 6 00:00 is after the last interval.',
    ].join(' '),
  },
  {
    name: 'lifecycle, weekly, weeks starting Monday',
    data: {
      project: { ...UTC, weekStartDay: 1 },
      now: '2024-01-25T12:00:00Z',
      persons: personsOf({ p1: [['x1']], p2: [['x2']], p3: [['x3']], p4: [['x4']] }),
      events: [
        ev('$pageview', 'x1', '2024-01-02T10:00:00Z'),
        ev('$pageview', 'x1', '2024-01-09T10:00:00Z'),
        ev('$pageview', 'x2', '2024-01-07T10:00:00Z'),
        ev('$pageview', 'x2', '2024-01-15T10:00:00Z'),
        ev('$pageview', 'x3', '2024-01-21T23:00:00Z'),
        ev('$pageview', 'x4', '2024-01-22T10:00:00Z'),
      ],
    },
    params: { ...LIFECYCLE, date_from: '2024-01-08', date_to: '2024-01-21', interval: 'week' },
    expected: [
      status('new', [0, 1], { days: ['2024-01-08', '2024-01-15'], labels: ['8–14 Jan', '15–21 Jan'] }),
      status('returning', [1, 0]),
      status('resurrecting', [0, 1]),
      status('dormant', [-1, -1]),
    ],
    why: 'Monday weeks Jan 8 and 15; the extra week is Jan 1. p1: week Jan 1 (new), week Jan 8 returning, dormant week Jan 15. p2: Sunday Jan 7 is in week Jan 1, so dormant week Jan 8 and resurrecting week Jan 15. p3: Sunday Jan 21 is in week Jan 15: new. p4: Jan 22 is after the range.',
  },
  {
    name: 'lifecycle in America/New_York across the 25-hour day',
    data: {
      project: NEW_YORK,
      now: '2024-11-20T12:00:00Z',
      persons: personsOf({ p1: [['x1']], p2: [['x2']] }),
      events: [ev('$pageview', 'x1', '2024-11-02T15:00:00Z'), ev('$pageview', 'x1', '2024-11-05T04:30:00Z'), ev('$pageview', 'x2', '2024-11-03T03:30:00Z')],
    },
    params: { ...LIFECYCLE, date_from: '2024-11-02', date_to: '2024-11-04' },
    expected: [status('new', [2, 0, 0]), status('returning', [0, 0, 0]), status('resurrecting', [0, 0, 1]), status('dormant', [0, -2, 0])],
    why: "Local days Nov 2, 3, 4. p1: Nov 2 11:00 EDT (new), nothing Nov 3 (dormant), 11-05T04:30Z is Nov 4 23:30 EST (resurrecting). p2: 11-03T03:30Z is Nov 2 23:30 EDT: new Nov 2, dormant Nov 3. In UTC both late events would fall a day later.",
  },
]
