import { bucketStarts } from '../shared/ref-time.js'
import type { RefDateRange as ResolvedDateRange } from '../shared/ref-dates.js'
import { compareValues, valueKey, type BreakdownValue } from './funnel-breakdown-value.js'
import type { FunnelRefDataset } from './funnel-dataset.js'
import { periodDay, periodLabel } from './funnel-labels.js'
import type { FunnelSpec } from './funnel-spec.js'
import { round2 } from './funnel-stats.js'
import type { PeriodOutcomes } from './funnel-trend-runs.js'

interface Tally {
  readonly value: BreakdownValue | null
  readonly from: Map<number, number>
  readonly to: Map<number, number>
}

/**
 * The trends view's summarised `result` (funnels.md §10.3-10.5): per period
 * of the range (empty ones included) the conversion rate
 * `round(to / from * 100, 2)`, 0 when nobody entered. With a breakdown, one
 * object per value seen, each with `breakdown_value`: the `limit` values with
 * the most entrants (ties: value descending) are kept, no "Other", and listed
 * by value ascending (Python's sort). Without one, a single object, zeros
 * included.
 */
export function trendsResult(
  spec: FunnelSpec,
  data: FunnelRefDataset,
  range: ResolvedDateRange,
  outcomes: ReadonlyArray<{ value: BreakdownValue | null; periods: PeriodOutcomes }>,
): unknown[] {
  const { timezone, weekStartDay } = data.project
  const periods = bucketStarts(range, spec.interval, timezone, weekStartDay).map((d) => d.getTime())
  const tallies = new Map<string, Tally>()
  for (const { value, periods: outcome } of outcomes) {
    if (outcome.size === 0) continue
    const key = valueKey(value)
    const t = tallies.get(key) ?? { value, from: new Map(), to: new Map() }
    for (const [period, result] of outcome) {
      t.from.set(period, (t.from.get(period) ?? 0) + 1)
      if (result === 1) t.to.set(period, (t.to.get(period) ?? 0) + 1)
    }
    tallies.set(key, t)
  }
  const summary = (t: Tally | undefined) => ({
    count: periods.length,
    data: periods.map((p) => {
      const from = t?.from.get(p) ?? 0
      return from > 0 ? round2(((t?.to.get(p) ?? 0) / from) * 100) : 0
    }),
    days: periods.map((p) => periodDay(p, spec.interval, timezone)),
    labels: periods.map((p) => periodLabel(p, spec.interval, timezone, weekStartDay, range)),
  })
  const b = spec.breakdown
  if (b === null) return [summary(tallies.get(valueKey(null)))]

  const total = (t: Tally) => [...t.from.values()].reduce((x, y) => x + y, 0)
  const kept = [...tallies.values()]
    .sort((x, y) => total(y) - total(x) || compareValues(y.value!, x.value!))
    .slice(0, b.limit)
    .sort((x, y) => compareValues(x.value!, y.value!))
  return kept.map((t) => ({
    ...summary(t),
    breakdown_value: b.type === 'cohort' ? (t.value === 'all' ? 'all users' : (data.cohortNames?.[t.value as number] ?? String(t.value))) : t.value,
  }))
}
