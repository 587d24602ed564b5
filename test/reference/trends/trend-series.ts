/**
 * TRENDS (reference §4-9): per period, per series, per breakdown value, the
 * series objects PostHog returns, then formulas over them.
 */
import type { RefDataset } from '../shared/ref-dataset.js'
import { groupByBreakdown, type BreakdownGroup } from './trend-breakdown.js'
import { seriesRows, withGroupOfMath } from './trend-filters.js'
import { applyFormula } from './trend-formula-rows.js'
import { dayOf, isoInZone, labelOf } from './trend-labels.js'
import { consideredRows, firstTimeRows, timeSeriesOf, totalValueOf } from './trend-math.js'
import { periodsOf, type Period, type PeriodContext } from './trend-period.js'
import { TOTAL_VALUE_DISPLAYS, type SeriesSpec, type TrendQuery } from './trend-query.js'
import { limitAndOrder } from './trend-ranking.js'
import type { Row } from './trend-rows.js'
import { FOLDS_BY_SUM, smoothed, sumRows } from './trend-smoothing.js'

/** One computed row before it is written out: a series, maybe a breakdown value, its numbers. */
export interface Computed {
  readonly series: SeriesSpec
  readonly group: BreakdownGroup | null
  readonly data: number[]
  readonly aggregated: number
  readonly total: number
}

export interface Shape {
  readonly totalValue: boolean
  readonly cumulative: boolean
}

export async function trendsResult(query: TrendQuery, params: Record<string, unknown>, rows: ReadonlyArray<Row>, data: RefDataset, ctx: PeriodContext): Promise<object[]> {
  const shape: Shape = { totalValue: TOTAL_VALUE_DISPLAYS.includes(query.display), cumulative: query.display === 'ActionsLineGraphCumulative' }
  const periods = await periodsOf(query, ctx, query.display === 'BoldNumber')
  const perSeries = query.series.map((s) => {
    const matched = withGroupOfMath(s, seriesRows(rows, s, query, data))
    return s.math === 'first_time_for_user' ? firstTimeRows(matched) : matched
  })
  const out: object[] = []
  for (const p of periods) {
    const computed = query.series.map((s, i) => computeSeries(s, perSeries[i]!, p, query, shape, data))
    if (query.formula) {
      out.push(...applyFormula(query.formula, computed, query, shape, p.compareLabel !== null).map((c) => write(c, p, query, params, shape, true)))
    } else {
      out.push(...computed.flat().map((c) => write(c, p, query, params, shape, false)))
    }
  }
  return out
}

function computeSeries(s: SeriesSpec, rows: ReadonlyArray<Row>, p: Period, query: TrendQuery, shape: Shape, data: RefDataset): Computed[] {
  const considered = consideredRows(s, rows, p, shape.totalValue)
  const compute = (group: BreakdownGroup | null, rs: ReadonlyArray<Row>): Computed => {
    if (shape.totalValue) {
      const aggregated = totalValueOf(s, rs)
      return { series: s, group, data: [], aggregated, total: aggregated }
    }
    // The newest query smooths the row as it would be shown, cumulative included.
    const values = smoothed(timeSeriesOf(s, rs, p, shape.cumulative), query.smoothingIntervals)
    return { series: s, group, data: values, aggregated: 0, total: values.reduce((a, b) => a + b, 0) }
  }
  // With smoothing, PostHog's Other of a summable math is the sum of the folded rows as shown.
  const other = (g: BreakdownGroup, folded: ReadonlyArray<Computed>): Computed => {
    if (shape.totalValue || query.smoothingIntervals <= 1 || !FOLDS_BY_SUM.includes(s.math)) return compute(g, g.rows)
    const data = sumRows(folded.map((c) => c.data), p.starts.length)
    return { series: s, group: g, data, aggregated: 0, total: data.reduce((a, b) => a + b, 0) }
  }
  if (query.breakdowns.length === 0) return [compute(null, considered)]
  const groups = groupByBreakdown(considered, query.breakdowns, query.multiBreakdown, data)
  const options = {
    limit: query.breakdownLimit,
    hideOther: query.hideOther,
    width: query.breakdowns.length,
    multi: query.multiBreakdown,
    foldable: query.breakdowns[0]!.type !== 'cohort',
    nullCompetes: shape.totalValue,
  }
  return limitAndOrder(groups.map((g) => compute(g, g.rows)), options, other)
}

function write(c: Computed, p: Period, query: TrendQuery, params: Record<string, unknown>, shape: Shape, formula: boolean): object {
  const label = formula
    ? `Formula (${query.formula})`
    : c.group === null
      ? c.series.name
      : query.series.length === 1
        ? c.group.label
        : `${c.series.name} - ${c.group.label}`
  const out: Record<string, unknown> = shape.totalValue
    ? { data: formula ? null : [], days: [], count: 0, aggregated_value: c.aggregated }
    : {
        data: c.data,
        labels: p.starts.map((s) => labelOf(p, s)),
        days: p.starts.map((s) => dayOf(p, s)),
        count: shape.cumulative && !formula ? (c.data.at(-1) ?? 0) : c.data.reduce((a, b) => a + b, 0),
      }
  out.label = label
  out.filter = filterOf(query, params, p)
  out.action = formula ? null : actionOf(c.series, p)
  if (c.group !== null) out.breakdown_value = c.group.value
  if (p.compareLabel !== null) {
    out.compare = true
    out.compare_label = p.compareLabel
  }
  return out
}

export function actionOf(s: SeriesSpec, p: Period): Record<string, unknown> {
  return {
    days: p.starts.map((start) => isoInZone(p.timeZone, start * 1000)),
    // build_series_response writes series_event(): the event, or the action's name.
    id: s.type === 'actions' ? s.name : s.id,
    type: 'events',
    order: s.index,
    name: s.name,
    custom_name: s.customName,
    math: s.math,
    math_property: s.mathProperty,
    math_hogql: null,
    math_group_type_index: s.mathGroupTypeIndex,
    properties: {},
  }
}

/** The request echoed (§4): as sent, with the insight, interval and this period's resolved bounds. */
export function filterOf(query: TrendQuery, params: Record<string, unknown>, p: Period): Record<string, unknown> {
  return {
    ...params,
    insight: query.insight,
    interval: query.interval,
    display: query.display,
    date_from: isoInZone(p.timeZone, p.fromMicros),
    date_to: isoInZone(p.timeZone, p.toMicros),
    filter_test_accounts: query.filterTestAccounts,
    properties: query.properties,
    entity_type: 'events',
  }
}
