/**
 * The worked examples: parameters, data and the rows counted by hand.
 * `rows` lists each result row as [breakdown value or null, values].
 */
import type { RefDataset } from '../reference/shared/ref-dataset.js'
import { browserSwitch, companies, dataset, ev, pageviews, purchases, sameInstantFirst, springForwardDays, springForwardHours, withDecember } from './examples-data.js'
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
    // With date_from the rows are the days 1..6, each with 3 values (k = 0, 1, 2). p1 views on the 2nd (row 1) and the 5th
    // (row 4). Seen from row 1, the 5th is k = 3: past the row's values, so it is no return there, cumulative or not; row 1
    // is [1, 0, 0] (counting it as the furthest return would make it [1, 1, 1]). Row 4 is [1, 0, 0]: nothing after the 5th.
    name: 'cumulative: a return just past the row\'s last value counts nowhere',
    data: dataset([ev('$pageview', 'd1', '2024-01-02T10:00:00Z'), ev('$pageview', 'd1', '2024-01-05T10:00:00Z')]),
    params: { date_from: '2024-01-01', date_to: '2024-01-06', total_intervals: 3, cumulative: true },
    rows: [
      [null, [0, 0, 0]],
      [null, [1, 0, 0]],
      [null, [0, 0, 0]],
      [null, [0, 0, 0]],
      [null, [1, 0, 0]],
      [null, [0, 0, 0]],
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
  {
    // Sign-up starts, purchase returns. Row 0: p1 (its same-day purchase is no return), back on the 9th (k2).
    // Row 1: p2, back on the 10th (k2). Row 2: d4, back on the 10th (k1). Row 3: p2's second sign-up.
    name: 'target and returning entities differ',
    data: purchases,
    params: { ...window4, target_entity: { id: 'signup', type: 'events' }, returning_entity: { id: 'buy', type: 'events' } },
    rows: [
      [null, [1, 0, 1, 0]],
      [null, [1, 0, 1, 0]],
      [null, [1, 1, 0, 0]],
      [null, [1, 0, 0, 0]],
    ],
  },
  {
    // Only p1's 9th has two purchases; every other return period has one.
    name: 'minimum_occurrences 2',
    data: purchases,
    params: { ...window4, target_entity: { id: 'signup', type: 'events' }, returning_entity: { id: 'buy', type: 'events' }, minimum_occurrences: 2 },
    rows: [
      [null, [1, 0, 1, 0]],
      [null, [1, 0, 0, 0]],
      [null, [1, 0, 0, 0]],
      [null, [1, 0, 0, 0]],
    ],
  },
  {
    // Entities as JSON text (a GET query); any event starts. Active days: p1 {7, 9}, p2 {8, 10}, p3 {8}, d4 {9, 10};
    // purchases: p1 {9}, p2 {10}, d4 {10} after their start days.
    name: 'id null is any event; entities as JSON text; period in capitals',
    data: purchases,
    params: { ...window4, period: 'DAY', target_entity: '{"id": null, "type": "events"}', returning_entity: '{"id": "buy", "type": "events"}' },
    rows: [
      [null, [1, 0, 1, 0]],
      [null, [2, 0, 1, 0]],
      [null, [2, 1, 0, 0]],
      [null, [2, 0, 0, 0]],
    ],
  },
  {
    // Chrome is p1 only, on both start and return events.
    name: 'global properties apply to start and return events',
    data: purchases,
    params: { ...window4, target_entity: { id: 'signup' }, returning_entity: { id: 'buy' }, properties: [{ key: '$browser', value: 'Chrome', operator: 'exact', type: 'event' }] },
    rows: [
      [null, [1, 0, 1, 0]],
      [null, [0, 0, 0, 0]],
      [null, [0, 0, 0, 0]],
      [null, [0, 0, 0, 0]],
    ],
  },
  {
    // Only acme is big: d1's page view on the 7th and d2's on the 8th pass; d3's on the 8th (no company) and the 9th (beta)
    // do not. Nobody comes back. (A retention that reads no person joined the filter's group only on some storages.)
    name: 'a global group property filter',
    data: companies,
    params: { ...window4, properties: [{ key: 'size', value: 'big', operator: 'exact', type: 'group', group_type_index: 0 }] },
    rows: [
      [null, [1, 0, 0, 0]],
      [null, [1, 0, 0, 0]],
      [null, [0, 0, 0, 0]],
      [null, [0, 0, 0, 0]],
    ],
  },
  {
    // Safari is a test account: d4 goes (row 2), the rest is as without the filter.
    name: 'filter_test_accounts',
    data: { ...purchases, project: { ...purchases.project, testAccountFilters: [{ key: '$browser', value: 'Safari', operator: 'is_not', type: 'event' }] } },
    params: { ...window4, target_entity: { id: 'signup' }, returning_entity: { id: 'buy' }, filter_test_accounts: true },
    rows: [
      [null, [1, 0, 1, 0]],
      [null, [1, 0, 1, 0]],
      [null, [0, 0, 0, 0]],
      [null, [1, 0, 0, 0]],
    ],
  },
  {
    // Sign-ups with plan_choice pro: p1 on the 7th, p2 on the 10th (its first matching one; its sign-up on the 8th is free).
    name: 'retention_first_time with the target\'s own property filter',
    data: purchases,
    params: {
      ...window4,
      retention_type: 'retention_first_time',
      target_entity: { id: 'signup', type: 'events', properties: [{ key: 'plan_choice', value: 'pro' }] },
      returning_entity: { id: 'buy' },
    },
    rows: [
      [null, [1, 0, 1, 0]],
      [null, [0, 0, 0, 0]],
      [null, [0, 0, 0, 0]],
      [null, [1, 0, 0, 0]],
    ],
  },
  {
    // p2's first sign-up ever (the 8th) is free, so p2 is in no cohort; p1's first is pro.
    name: 'retention_first_ever_occurrence excludes an actor whose first start event fails the filter',
    data: purchases,
    params: {
      ...window4,
      retention_type: 'retention_first_ever_occurrence',
      target_entity: { id: 'signup', type: 'events', properties: [{ key: 'plan_choice', value: 'pro' }] },
      returning_entity: { id: 'buy' },
    },
    rows: [
      [null, [1, 0, 1, 0]],
      [null, [0, 0, 0, 0]],
      [null, [0, 0, 0, 0]],
      [null, [0, 0, 0, 0]],
    ],
  },
  {
    // plan: free = p2, p3 (cohort total 3), pro = p1 (3), '' = d4 (1). Ties rank by value: free, pro; '' folds into Other.
    name: 'person breakdown with breakdown_limit and Other',
    data: pageviews,
    params: { ...window4, breakdown: 'plan', breakdown_type: 'person', breakdown_limit: 2 },
    perBlock: 4,
    rows: [
      ['free', [1, 0, 1, 0]],
      ['free', [1, 0, 0, 0]],
      ['free', [1, 0, 0, 0]],
      ['free', [0, 0, 0, 0]],
      ['pro', [1, 1, 0, 1]],
      ['pro', [1, 0, 1, 0]],
      ['pro', [0, 0, 0, 0]],
      ['pro', [1, 0, 0, 0]],
      ['$$_posthog_breakdown_other_$$', [0, 0, 0, 0]],
      ['$$_posthog_breakdown_other_$$', [0, 0, 0, 0]],
      ['$$_posthog_breakdown_other_$$', [0, 0, 0, 0]],
      ['$$_posthog_breakdown_other_$$', [1, 0, 0, 0]],
    ],
  },
  {
    // Rows 9 and 10: p2 (free) on the 9th, p1 (pro) and d4 (no plan) on the 10th. A missing value is ''
    // (PostHog's ifNull(toString(..), '')); all three totals are 1, so the values rank by text: '', free, pro.
    name: 'person breakdown: a missing value is the empty string, ties rank by value',
    data: pageviews,
    params: { date_to: '2024-01-10', total_intervals: 2, breakdown: 'plan', breakdown_type: 'person' },
    perBlock: 2,
    rows: [
      ['', [0, 0]],
      ['', [1, 0]],
      ['free', [1, 0]],
      ['free', [0, 0]],
      ['pro', [0, 0]],
      ['pro', [1, 0]],
    ],
  },
  {
    // The value is each event's own: the Safari page view on the 8th is not a return of the Chrome cohort.
    name: 'event breakdown: a return must carry the start value',
    data: browserSwitch,
    params: { ...window4, breakdown: '$browser' },
    perBlock: 4,
    rows: [
      ['Chrome', [1, 0, 0, 0]],
      ['Chrome', [0, 0, 0, 0]],
      ['Chrome', [0, 0, 0, 0]],
      ['Chrome', [0, 0, 0, 0]],
      ['Safari', [0, 0, 0, 0]],
      ['Safari', [1, 0, 0, 0]],
      ['Safari', [0, 0, 0, 0]],
      ['Safari', [0, 0, 0, 0]],
    ],
  },
  {
    // acme active on the 7th and 8th, beta on the 9th; p3's event without a company counts for no one.
    name: 'aggregation_group_type_index counts groups',
    data: companies,
    params: { ...window4, aggregation_group_type_index: 0 },
    rows: [
      [null, [1, 1, 0, 0]],
      [null, [1, 0, 0, 0]],
      [null, [1, 0, 0, 0]],
      [null, [0, 0, 0, 0]],
    ],
  },
  {
    // Sunday weeks: the window ends with the week of 7..13 January; p3's 6th is in the week before, back on the 8th.
    name: 'weeks starting on Sunday',
    data: pageviews,
    params: { date_to: '2024-01-10', total_intervals: 3, period: 'Week' },
    period: 'Week',
    rows: [
      [null, [0, 0, 0]],
      [null, [1, 1, 0]],
      [null, [4, 0, 0]],
    ],
    dates: ['2023-12-24T00:00:00Z', '2023-12-31T00:00:00Z', '2024-01-07T00:00:00Z'],
  },
  {
    // Monday weeks: Sunday the 7th joins the week of 1 January, with p3's 6th; all three are back in the week of the 8th.
    name: 'weeks starting on Monday (the project\'s week_start_day)',
    data: { ...pageviews, project: { ...pageviews.project, weekStartDay: 1 } },
    params: { date_to: '2024-01-10', total_intervals: 3, period: 'week' },
    period: 'Week',
    rows: [
      [null, [0, 0, 0]],
      [null, [3, 3, 0]],
      [null, [4, 0, 0]],
    ],
    dates: ['2023-12-25T00:00:00Z', '2024-01-01T00:00:00Z', '2024-01-08T00:00:00Z'],
  },
  {
    // December: p1 (15th), back in January; January: all four.
    name: 'months',
    data: withDecember,
    params: { date_to: '2024-01-10', total_intervals: 2, period: 'Month' },
    period: 'Month',
    rows: [
      [null, [1, 1]],
      [null, [4, 0]],
    ],
    dates: ['2023-12-01T00:00:00Z', '2024-01-01T00:00:00Z'],
  },
  {
    // Clock hours ending with 03:00-04:00 EDT: 00:00 EST (p1, back at 03:10), 01:00 EST (p2, back at 03:59), 03:00 EDT (both).
    name: 'hours across the spring-forward change',
    data: springForwardHours,
    params: { date_to: '2024-03-10T03:30:00', total_intervals: 3, period: 'Hour' },
    period: 'Hour',
    rows: [
      [null, [1, 0, 1]],
      [null, [1, 1, 0]],
      [null, [2, 0, 0]],
    ],
    dates: ['2024-03-10T00:00:00-05:00', '2024-03-10T01:00:00-05:00', '2024-03-10T03:00:00-04:00'],
  },
  {
    // Local days: 23:30 on the 9th (EST), 23:30 on the 10th (a 23-hour day, EDT), 00:30 on the 11th.
    name: 'days in the project\'s zone across the change',
    data: springForwardDays,
    params: { date_to: '2024-03-11', total_intervals: 3 },
    rows: [
      [null, [1, 1, 1]],
      [null, [1, 1, 0]],
      [null, [1, 0, 0]],
    ],
    dates: ['2024-03-09T00:00:00-05:00', '2024-03-10T00:00:00-05:00', '2024-03-11T00:00:00-04:00'],
  },
  {
    // date_from gives the rows (the 9th and 10th); total_intervals still gives three values per row.
    name: 'explicit date_from',
    data: pageviews,
    params: { date_from: '2024-01-09', date_to: '2024-01-10', total_intervals: 3 },
    rows: [
      [null, [1, 0, 0]],
      [null, [2, 0, 0]],
    ],
  },
  {
    // Company size of each event's company: big for p1 (7th) and p2 (8th); p3's 8th has no company ('') and its 9th is
    // small, so it is not a return of its '' cohort. Totals: big 2, '' 1, small 1 (ties by text: '' first).
    name: 'group breakdown',
    data: companies,
    params: { ...window4, breakdown: 'size', breakdown_type: 'group', breakdown_group_type_index: 0 },
    perBlock: 4,
    rows: [
      ['big', [1, 0, 0, 0]],
      ['big', [1, 0, 0, 0]],
      ['big', [0, 0, 0, 0]],
      ['big', [0, 0, 0, 0]],
      ['', [0, 0, 0, 0]],
      ['', [1, 0, 0, 0]],
      ['', [0, 0, 0, 0]],
      ['', [0, 0, 0, 0]],
      ['small', [0, 0, 0, 0]],
      ['small', [0, 0, 0, 0]],
      ['small', [1, 0, 0, 0]],
      ['small', [0, 0, 0, 0]],
    ],
  },
  {
    // Weeks (Sunday start, New York) 18 Feb, 25 Feb, 3, 10, 17 March (date_to 20 March, 5 intervals). The first-ever
    // occurrence is taken per actor and breakdown value (PostHog's inner query groups by both), so a same-instant tie
    // between values is no tie: p1 is in two groups. Chrome: its only event, Saturday 24 Feb 19:00 EST (row 0), never
    // back. '': the value-less event at the same instant (row 0) and the '' event at 00:00 EST on Sunday 25 Feb (row 1,
    // k1). Both totals are 1, so '' ranks first by text.
    name: 'retention_first_ever_occurrence by event value: same-instant first events of two values',
    data: sameInstantFirst,
    params: {
      period: 'Week',
      date_to: '2024-03-20',
      total_intervals: 5,
      breakdown: '$browser',
      target_entity: { id: 'a', type: 'events' },
      returning_entity: { id: 'a', type: 'events' },
      retention_type: 'retention_first_ever_occurrence',
      filter_test_accounts: false,
      cumulative: true,
    },
    period: 'Week',
    perBlock: 5,
    rows: [
      ['', [1, 1, 0, 0, 0]],
      ['', [0, 0, 0, 0, 0]],
      ['', [0, 0, 0, 0, 0]],
      ['', [0, 0, 0, 0, 0]],
      ['', [0, 0, 0, 0, 0]],
      ['Chrome', [1, 0, 0, 0, 0]],
      ['Chrome', [0, 0, 0, 0, 0]],
      ['Chrome', [0, 0, 0, 0, 0]],
      ['Chrome', [0, 0, 0, 0, 0]],
      ['Chrome', [0, 0, 0, 0, 0]],
    ],
    dates: [0, 1].flatMap(() => ['2024-02-18T00:00:00-05:00', '2024-02-25T00:00:00-05:00', '2024-03-03T00:00:00-05:00', '2024-03-10T00:00:00-05:00', '2024-03-17T00:00:00-04:00']),
  },
]
