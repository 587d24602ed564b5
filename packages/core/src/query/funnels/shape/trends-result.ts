import type { ResolvedDateRange } from '../../dates/resolve-date-range.js'
import type { QueryProject } from '../../scope/query-project.js'
import type { FunnelRequest } from '../funnel-request.js'
import { compareValues, rowValue, type FunnelBreakdownValue } from './breakdown-values.js'
import { periodDay, periodLabel } from './trend-labels.js'

/** One series of a funnel's trends view (PostHog's summarised form). */
export interface FunnelTrendsSeries {
  /** The number of periods. */
  count: number
  /** Per period: the % of its entrants who converted, to 2 decimals (0 when nobody entered). */
  data: number[]
  days: string[]
  labels: string[]
  /** With a breakdown: the value (a cohort's name). */
  breakdown_value?: FunnelBreakdownValue | null
}

type Row = Readonly<Record<string, unknown>>

/** ClickHouse `round(x, 2)`: to the nearest hundredth, exact halves to even. */
export function round2(x: number): number {
  const scaled = x * 100
  const floor = Math.floor(scaled)
  const diff = scaled - floor
  const r = diff > 0.5 ? floor + 1 : diff < 0.5 ? floor : floor % 2 === 0 ? floor : floor + 1
  return r / 100
}

export interface TrendsContext {
  readonly request: FunnelRequest
  readonly project: QueryProject
  readonly range: ResolvedDateRange
  /** Every period's start (ms), empty ones included. */
  readonly periods: ReadonlyArray<number>
  readonly cohortNames: ReadonlyMap<number, string | null>
}

/**
 * The trends view's `result` (funnels.md §10.3-10.5), PostHog's summarised
 * form: per period `round(converted / entered * 100, 2)` (0 when nobody
 * entered), with `days` and `labels`. From rows `(v0.., per, entered,
 * converted)`. With a breakdown, one object per value that has entrants,
 * with `breakdown_value` (a cohort's name): the `limit` values with the most
 * entrants (ties: value descending) are kept, no "Other", listed by value.
 */
export function trendsResult(rows: ReadonlyArray<Row>, ctx: TrendsContext): FunnelTrendsSeries[] {
  const { request, project, range, periods } = ctx
  const zone = project.timezone
  const summary = (entered: Map<number, number>, converted: Map<number, number>) => ({
    count: periods.length,
    data: periods.map((_, i) => {
      const e = entered.get(i) ?? 0
      return e > 0 ? round2(((converted.get(i) ?? 0) / e) * 100) : 0
    }),
    days: periods.map((p) => periodDay(p, request.interval, zone)),
    labels: periods.map((p) => periodLabel(p, request.interval, zone, project.weekStartDay, range)),
  })
  const b = request.breakdown
  const tallies = new Map<string, { value: FunnelBreakdownValue | null; entered: Map<number, number>; converted: Map<number, number> }>()
  for (const r of rows) {
    const value = b === null ? null : rowValue(b, r)
    const key = JSON.stringify(value)
    const t = tallies.get(key) ?? { value, entered: new Map(), converted: new Map() }
    const per = Number(r.per)
    t.entered.set(per, (t.entered.get(per) ?? 0) + Number(r.entered))
    t.converted.set(per, (t.converted.get(per) ?? 0) + Number(r.converted))
    tallies.set(key, t)
  }
  if (b === null) {
    const only = tallies.get('null')
    return [summary(only?.entered ?? new Map(), only?.converted ?? new Map())]
  }
  const total = (t: { entered: Map<number, number> }) => [...t.entered.values()].reduce((x, y) => x + y, 0)
  const cohort = b.dims[0]!.type === 'cohort'
  return [...tallies.values()]
    .sort((x, y) => total(y) - total(x) || compareValues(y.value!, x.value!))
    .slice(0, b.limit)
    .sort((x, y) => compareValues(x.value!, y.value!))
    .map((t) => ({
      ...summary(t.entered, t.converted),
      breakdown_value: cohort ? (t.value === 'all' ? 'all users' : (ctx.cohortNames.get(t.value as number) ?? String(t.value))) : t.value,
    }))
}
