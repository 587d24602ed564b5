/**
 * Random legacy trend requests over the datasets of
 * test/reference/trends/trend-arbitraries.ts (events `a` and `b`, `$browser`,
 * numeric-or-not `amount`, `$session_id`, `$group_0`, person `plan`): every
 * insight, math, interval, display, breakdown shape, limit, formula, compare,
 * smoothing and date form the reference evaluator covers. Nothing is left out here;
 * nothing is excluded: Sightline and the reference agree on every request it makes.
 */
import fc from 'fast-check'
import { RANGE } from '../../reference/trends/trend-arbitraries.js'

const MATHS = [
  'total', 'dau', 'weekly_active', 'monthly_active', 'unique_session', 'unique_group', 'first_time_for_user',
  'sum', 'avg', 'min', 'max', 'median', 'p90', 'avg_count_per_actor', 'max_count_per_actor', 'p75_count_per_actor',
] as const
const PROPERTY_MATHS = new Set(['sum', 'avg', 'min', 'max', 'median', 'p90'])
const TIME_SERIES = ['ActionsLineGraph', 'ActionsLineGraphCumulative', 'ActionsBar']
const TOTAL_VALUE = ['ActionsPie', 'ActionsTable', 'ActionsBarValue', 'BoldNumber', 'WorldMap']

const filter = fc.constantFrom(
  undefined,
  [{ key: '$browser', value: 'Chrome', operator: 'exact', type: 'event' }],
  [{ key: '$browser', operator: 'is_set', type: 'event' }],
  [{ key: 'plan', value: 'free', operator: 'exact', type: 'person' }],
  { type: 'OR', values: [{ key: 'amount', value: 10, operator: 'gt', type: 'event' }, { key: '$browser', value: 'Safari', type: 'event' }] },
)

const series = fc.record({ id: fc.constantFrom('a', 'b', null), math: fc.constantFrom(...MATHS), properties: filter }).map(({ id, math, properties }) => ({
  id,
  type: 'events',
  math,
  ...(PROPERTY_MATHS.has(math) ? { math_property: 'amount' } : {}),
  ...(math === 'unique_group' ? { math_group_type_index: 0 } : {}),
  ...(properties === undefined ? {} : { properties }),
}))

const EMPTY = {}
const breakdown = fc.constantFrom(
  EMPTY,
  { breakdown: '$browser' },
  { breakdown: '$browser', breakdown_type: 'event', breakdown_normalize_url: true },
  { breakdown: 'plan', breakdown_type: 'person' },
  { breakdown: 'amount', breakdown_histogram_bin_count: 3 },
  { breakdowns: [{ property: '$browser', type: 'event' }, { property: 'plan', type: 'person' }] },
)

const dates = fc.constantFrom(
  RANGE,
  { date_from: '-7d' },
  { date_from: '-14d', date_to: '-3d' },
  { date_from: '2024-03-09', date_to: '2024-03-11T05:00:00' },
  { date_from: 'all' },
)

export const trendParams: fc.Arbitrary<Record<string, unknown>> = fc
  .record({
    insight: fc.constantFrom('TRENDS', 'TRENDS', 'TRENDS', 'STICKINESS', 'LIFECYCLE'),
    events: fc.array(series, { minLength: 1, maxLength: 2 }),
    interval: fc.constantFrom('hour', 'day', 'day', 'week', 'month'),
    display: fc.constantFrom(...TIME_SERIES, ...TOTAL_VALUE),
    breakdown,
    // A limit four times in five and Other hidden one time in four: an Other row in about one run in six.
    limit: fc.constantFrom(undefined, 1, 1, 2, 3),
    hideOther: fc.integer({ min: 0, max: 3 }).map((k) => k === 0),
    formula: fc.constantFrom(undefined, undefined, 'A+B', 'A/B', '(A-B)*2', '-a/4+1'),
    compare: fc.boolean(),
    dates,
    properties: filter,
    filterTestAccounts: fc.boolean(),
    // Mostly none, so the other parameters keep their share of the runs.
    smoothing: fc.constantFrom(undefined, undefined, undefined, 2, 3),
  })
  .map((p) => {
    const formula = p.formula !== undefined && (p.events.length === 2 || !/b/i.test(p.formula)) ? p.formula : undefined
    const hourly = p.interval === 'hour' && p.dates.date_from === 'all' ? { ...RANGE } : p.dates
    return {
      insight: p.insight,
      events: p.events,
      interval: p.interval,
      display: p.display,
      ...p.breakdown,
      ...(p.limit === undefined ? {} : { breakdown_limit: p.limit }),
      ...(p.hideOther ? { breakdown_hide_other_aggregation: true } : {}),
      ...(formula === undefined ? {} : { formula }),
      ...(p.compare ? { compare: true } : {}),
      ...hourly,
      ...(p.properties === undefined ? {} : { properties: p.properties }),
      ...(p.filterTestAccounts ? { filter_test_accounts: true } : {}),
      ...(p.smoothing === undefined ? {} : { smoothing_intervals: p.smoothing }),
    }
  })
