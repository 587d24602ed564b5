import { breakdownLabel } from '../format.js'
import type { TrendSeries } from '../wire.js'

/** A series' name as a legend shows it: the event's custom name or label, the breakdown value, ` (previous)` for a compared period. */
export function seriesName(series: TrendSeries, index: number): string {
  const base = series.breakdown_value !== undefined ? breakdownLabel(series.breakdown_value) : (series.action?.custom_name ?? series.label ?? `Series ${index + 1}`)
  return series.compare && series.compare_label === 'previous' ? `${base} (previous)` : base
}

/** The series of a trend answer, or none when it is not a list. */
export function seriesOf(result: unknown): ReadonlyArray<TrendSeries> {
  return Array.isArray(result) ? (result as TrendSeries[]) : []
}

/** A series' total: `aggregated_value` for total-value displays, else `count`, else the sum of its data. */
export function seriesTotal(series: TrendSeries): number {
  return series.aggregated_value ?? series.count ?? (series.data ?? []).reduce((a, b) => a + b, 0)
}
