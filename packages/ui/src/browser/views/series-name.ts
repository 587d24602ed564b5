import { breakdownLabel } from '../format.js'
import type { TrendSeries } from '../wire.js'

/** A series' name as a legend shows it: the event's custom name or label, the breakdown value, ` (previous)` for a compared period. */
export function seriesName(series: TrendSeries, index: number, withEvent = false): string {
  const event = series.action?.custom_name ?? series.action?.name ?? series.label ?? `Series ${index + 1}`
  const base =
    series.breakdown_value === undefined ? (series.action?.custom_name ?? series.label ?? `Series ${index + 1}`) : withEvent ? `${event} - ${breakdownLabel(series.breakdown_value)}` : breakdownLabel(series.breakdown_value)
  return series.compare && series.compare_label === 'previous' ? `${base} (previous)` : base
}

/**
 * The names of all series of an answer, each different: ECharts gives
 * same-named series one colour and one legend entry, so a breakdown of
 * several events names the event too (`signup - Chrome`), and any name
 * still repeated gets its position (`#2`).
 */
export function seriesNames(series: ReadonlyArray<TrendSeries>): string[] {
  const events = new Set(series.map((s) => s.action?.name ?? s.label))
  const names = series.map((s, i) => seriesName(s, i, events.size > 1))
  const seen = new Map<string, number>()
  return names.map((name) => {
    const n = (seen.get(name) ?? 0) + 1
    seen.set(name, n)
    return n === 1 ? name : `${name} #${n}`
  })
}

/** The series of a trend answer, or none when it is not a list. */
export function seriesOf(result: unknown): ReadonlyArray<TrendSeries> {
  return Array.isArray(result) ? (result as TrendSeries[]) : []
}

/** A series' total: `aggregated_value` for total-value displays, else `count`, else the sum of its data. */
export function seriesTotal(series: TrendSeries): number {
  return series.aggregated_value ?? series.count ?? (series.data ?? []).reduce((a, b) => a + b, 0)
}
