/**
 * The worked examples: parameters, data and the rows counted by hand.
 * `rows` lists each result row as [breakdown value or null, values].
 */
import type { RefDataset } from '../reference/ref-dataset.js'
import { dataset, ev, pageviews } from './examples-data.js'
import type { Shown } from './support.js'

export interface Example {
  readonly name: string
  readonly data: RefDataset
  readonly params: Record<string, unknown>
  readonly rows: Shown[]
  readonly dates?: string[]
  /** The period's title in labels (default Day). */
  readonly period?: string
  /** Rows per breakdown block (labels restart at 0 in each). */
  readonly perBlock?: number
}

const window4 = { date_to: '2024-01-10', total_intervals: 4 }

export const EXAMPLES: Example[] = [
  {
    // Rows are the days 7..10. Row 0: p1, p2; p1 back on 8 (k1) and 10 (k3), p2 on 9 (k2).
    // Row 1: p1, p3; only p1 back, on 10 (k2); 11 is past the window (k3 = 0).
    // Row 2: p2 alone, never back. Row 3: p1 and d4 (personless, a person of its own).
    name: 'recurring $pageview, the defaults (both entities $pageview)',
    data: pageviews,
    params: window4,
    rows: [
      [null, [2, 1, 1, 1]],
      [null, [2, 0, 1, 0]],
      [null, [1, 0, 0, 0]],
      [null, [2, 0, 0, 0]],
    ],
    dates: ['2024-01-07T00:00:00Z', '2024-01-08T00:00:00Z', '2024-01-09T00:00:00Z', '2024-01-10T00:00:00Z'],
  },
  {
    // Each actor counts at every k up to its furthest return: row 0 p1 (3), p2 (2); row 1 p1 (2), p3 (0).
    name: 'cumulative',
    data: pageviews,
    params: { ...window4, cumulative: true },
    rows: [
      [null, [2, 2, 2, 1]],
      [null, [2, 1, 1, 0]],
      [null, [1, 0, 0, 0]],
      [null, [2, 0, 0, 0]],
    ],
  },
  {
    // First page views ever: p1 and p2 on the 7th (row 0), p3 on the 6th (before the window: no row), d4 on the 10th.
    name: 'retention_first_time',
    data: pageviews,
    params: { ...window4, retention_type: 'retention_first_time' },
    rows: [
      [null, [2, 1, 1, 1]],
      [null, [0, 0, 0, 0]],
      [null, [0, 0, 0, 0]],
      [null, [1, 0, 0, 0]],
    ],
  },
]
