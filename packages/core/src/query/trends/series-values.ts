import { sql, type Expression, type RawBuilder, type SqlBool } from 'kysely'
import type { EngineContext } from '../../context.js'
import { runStorage } from '../../db/run.js'
import { boundedRows } from '../execution/bounded-rows.js'
import { OTHER_MARKER } from '../breakdowns/breakdown-markers.js'
import type { CellsSql } from './cells-sql.js'
import { histogramBins, type HistogramBin } from './histogram-bins.js'
import { notOneOfSql } from './key-filter.js'
import type { Period } from '../dates/periods.js'
import { rankRows } from './rank-rows.js'
import { seriesCellsScope, seriesCellsSql } from './series-cells-sql.js'
import { smoothPoints, smoothValues } from './smoothing.js'
import { breakdownKeysSql, breakdownNumberSql, seriesScope, type SeriesScope } from './series-scope.js'
import type { QueryEnv } from '../analysis/query-env.js'
import { isAdditive, planSeries, type SeriesPlan } from './series-plan.js'
import type { TrendRequest, TrendSeries } from './trend-request.js'
import { PERSON_KEY } from '../scope/event-scope.js'
import type { QuerySources } from '../scope/query-sources.js'
import { firstEventsSql } from './first-events-sql.js'
import { sqlCast } from '../../db/sql-cast.js'

/** One output row of a series: a breakdown value (or none) and its values. */
export interface ValueRow {
  /** One entry per breakdown dimension; empty without a breakdown. */
  readonly parts: ReadonlyArray<string>
  /** One value per bucket, or one value over the range for a total-value display. */
  readonly values: ReadonlyArray<number>
  readonly other: boolean
}

/** A series over one period: its rows ranked as PostHog shows them (reference §7.4), Other last. */
export interface SeriesOutcome {
  readonly series: TrendSeries
  readonly period: Period
  readonly rows: ReadonlyArray<ValueRow>
}

interface Cell {
  readonly b: number
  readonly parts: ReadonlyArray<string>
  readonly v: number
}

/**
 * Computes one series over one period: the values of every bucket (0 where
 * nothing happened) for each breakdown value, the top `breakdown_limit`
 * values kept and the rest folded into Other (computed over the folded rows:
 * summed for counts and sums, queried again for distinct and other
 * non-additive maths), then accumulated for the cumulative display. Without
 * a breakdown there is exactly one row.
 */
export async function seriesValues(ctx: EngineContext, env: QueryEnv, request: TrendRequest, series: TrendSeries, period: Period): Promise<SeriesOutcome> {
  const plan = planSeries(request, series, period)
  const scope = seriesCellsScope(env, request, series, plan)
  const width = valueCount(request, plan, period)
  const breakdown = request.breakdowns.length > 0
  const bins = await histogramBinsFor(ctx, request, series, env, plan)
  const keys = breakdownKeysSql(env, request, scope.sources, bins)
  const compiled = (fold: boolean, filter: ((keys: ReadonlyArray<Expression<string>>) => Expression<SqlBool>) | null) =>
    seriesCellsSql(series, plan, { scope, keys, env }, fold, filter)

  const cohorts = request.breakdowns[0]?.type === 'cohort' ? request.breakdowns[0].cohorts : null
  if (cohorts) return { series, period, rows: rankRows(await cohortRows(ctx, env, request, series, plan, scope, width, cohorts)) }

  const cells = await fetchCells(ctx, compiled(false, null), request.breakdowns.length, false)
  // Values as displayed (accumulated for the cumulative display): breakdown values are ranked by their sum.
  const byKey = groupCells(cells, plan, width)
  const rowOf = (list: ReadonlyArray<Cell>) => asDisplayed(request, denseRow(list, plan, width))
  if (!breakdown) {
    const [list] = byKey.values()
    return { series, period, rows: [list ? rowOf(list) : { parts: [], values: new Array(width).fill(0), other: false }] }
  }

  // Ranked by each value's total, read off its cells: memory and time follow
  // the fetched cells and the kept rows, never a row of every bucket for each
  // of thousands of values.
  const cumulative = request.display === 'ActionsLineGraphCumulative' && !request.totalValue
  const smoothed = request.smoothingIntervals > 1 ? smoothedRows(request, plan, width, cumulative) : null
  const score = (list: ReadonlyArray<Cell>) => (smoothed ? smoothed.total(list) : rankingTotal(list, plan, width, cumulative))
  const totals = [...byKey.values()].map((list) => ({ list, parts: list[0]!.parts, values: [score(list)] }))
  const ranked = rankRows(totals, { nullCompetes: request.totalValue })
  const kept = rankRows(ranked.slice(0, request.breakdownLimit).map((t) => rowOf(t.list)))
  const folded = ranked.slice(request.breakdownLimit)
  const out: ValueRow[] = [...kept]
  if (folded.length > 0 && !request.hideOther) {
    const parts = request.breakdowns.map(() => OTHER_MARKER)
    let values: number[]
    if (isAdditive(plan) && smoothed) {
      // PostHog folds Other as the sum of the folded rows as displayed, each smoothed on its own.
      values = new Array<number>(width).fill(0)
      for (const t of folded) smoothed.addInto(t.list, values)
    } else if (isAdditive(plan)) {
      // Additive maths: Other is the sum of the folded values' cells, bucket by bucket, then accumulated.
      const raw = new Array<number>(width).fill(0)
      for (const t of folded) for (const c of t.list) raw[c.b]! += c.v
      values = [...asDisplayed(request, { parts, values: raw, other: true }).values]
    } else {
      const notKept = (k: ReadonlyArray<Expression<string>>) => notOneOfSql(k, kept.map((r) => r.parts), env.hooks)
      const otherCells = await fetchCells(ctx, compiled(true, notKept), 0, true)
      const [other] = groupCells(otherCells, plan, width).values()
      values = other ? [...rowOf(other).values] : new Array(width).fill(0)
    }
    out.push({ parts, values, other: true })
  }
  return { series, period, rows: out }
}

/**
 * The sum of a value's row as displayed (what `rankRows` ranks by), from its
 * cells alone. A time series adds its cells in bucket order, as the row's
 * sum does; the cumulative display weighs each cell by the buckets it is
 * carried into; active days (cells are day deltas) by the windows whose last
 * day is on or after it.
 */
function rankingTotal(list: ReadonlyArray<Cell>, plan: SeriesPlan, width: number, cumulative: boolean): number {
  const sorted = [...list].sort((a, b) => a.b - b.b)
  let total = 0
  if (plan.kind === 'active-days') {
    let window = 0
    for (const c of sorted) {
      while (window < plan.lastDay.length && plan.lastDay[window]! < c.b) window++
      // Windows window..width-1 count the cell; accumulated, window j carries it into width - j points.
      const m = width - window
      total += c.v * (cumulative ? (m * (m + 1)) / 2 : m)
    }
    return total
  }
  for (const c of sorted) total += cumulative ? c.v * (width - c.b) : c.v
  return total
}

/**
 * With smoothing, breakdown values are ranked by the sum of their rows as
 * displayed (smoothed, PostHog's `arraySum(total)`), and Other adds those
 * rows up. A plain time series is smoothed from its points alone; a
 * cumulative or active-users row is non-zero everywhere after its first
 * point, so it is built whole, one value at a time.
 */
function smoothedRows(request: TrendRequest, plan: SeriesPlan, width: number, cumulative: boolean) {
  const sparse = !cumulative && plan.kind !== 'active-days'
  const points = (list: ReadonlyArray<Cell>) => smoothPoints(list, width, request.smoothingIntervals)
  return {
    total(list: ReadonlyArray<Cell>): number {
      const values = sparse ? points(list).map((p) => p.v) : asDisplayed(request, denseRow(list, plan, width)).values
      return values.reduce((a, b) => a + b, 0)
    },
    addInto(list: ReadonlyArray<Cell>, into: number[]): void {
      if (sparse) for (const p of points(list)) into[p.b]! += p.v
      else asDisplayed(request, denseRow(list, plan, width)).values.forEach((v, i) => (into[i]! += v))
    },
  }
}

/**
 * A cohort breakdown: the series' rows once per cohort (every person for
 * `all`), a person counting in each of its cohorts; never folded into Other
 * (PostHog runs one query per cohort).
 */
async function cohortRows(
  ctx: EngineContext,
  env: QueryEnv,
  request: TrendRequest,
  series: TrendSeries,
  plan: SeriesPlan,
  scope: SeriesScope,
  width: number,
  cohorts: ReadonlyArray<number | 'all'>,
): Promise<ValueRow[]> {
  const out: ValueRow[] = []
  for (const [i, id] of cohorts.entries()) {
    const part = String(id)
    const where = id === 'all' ? scope.where : sql<SqlBool>`(${scope.where} and ${env.extensions.cohortCondition(id, cohortPath(request, i))})`
    const inCohort: SeriesScope = { ...scope, where }
    const query = seriesCellsSql(series, plan, { scope: inCohort, keys: [sql<string>`cast(${part} as text)`], env }, false, null)
    const list = groupCells(await fetchCells(ctx, query, 1, false), plan, width).get(JSON.stringify([part]))
    if (list) out.push(asDisplayed(request, denseRow(list, plan, width)))
  }
  return out
}

/** Where a cohort id of the request is, for errors about it. */
export const cohortPath = (request: TrendRequest, i: number): Array<string | number> =>
  Array.isArray(request.params.breakdown) ? ['breakdown', i] : ['breakdown']

const valueCount = (request: TrendRequest, plan: SeriesPlan, period: Period) => (request.totalValue ? 1 : plan.kind === 'active-days' ? plan.lastDay.length : period.starts.length)

async function fetchCells(ctx: EngineContext, query: CellsSql, keyCount: number, folded: boolean): Promise<Cell[]> {
  // A breakdown reads one cell per (value, bucket): with a value per event that is every event.
  const rows =
    keyCount === 0
      ? (await runStorage('trend series', () => query.execute(ctx.db))).rows
      : await boundedRows<Record<string, unknown>>(ctx, 'trend series', query, { attr: 'breakdown', rows: '(breakdown value, interval) pairs' })
  return rows.map((row) => ({
    b: row.b === undefined ? 0 : Number(row.b),
    parts: folded ? [] : Array.from({ length: keyCount }, (_, i) => String(row[`k${i}`])),
    v: Number(row.v),
  }))
}

/**
 * Cells by the JSON of their parts, in the order their values first appear;
 * a time series' cells outside its buckets are dropped (a value with none
 * inside has no row). Active-days cells are day deltas, all kept.
 */
function groupCells(cells: ReadonlyArray<Cell>, plan: SeriesPlan, width: number): Map<string, Cell[]> {
  const byKey = new Map<string, Cell[]>()
  for (const c of cells) {
    if (plan.kind !== 'active-days' && (c.b < 0 || c.b >= width)) continue
    const key = JSON.stringify(c.parts)
    const list = byKey.get(key)
    if (list) list.push(c)
    else byKey.set(key, [c])
  }
  return byKey
}

/** One value's cells (all with the same parts) as a row of `width` values. */
function denseRow(list: ReadonlyArray<Cell>, plan: SeriesPlan, width: number): ValueRow {
  const values = new Array<number>(width).fill(0)
  if (plan.kind === 'active-days') {
    // Cells are deltas by day: a window's count is the running sum up to its last day.
    const sorted = [...list].sort((a, b) => a.b - b.b)
    let at = 0
    let running = 0
    plan.lastDay.forEach((day, i) => {
      for (; at < sorted.length && sorted[at]!.b <= day; at++) running += sorted[at]!.v
      values[i] = running
    })
  } else {
    for (const c of list) values[c.b]! += c.v
  }
  return { parts: list[0]!.parts, values, other: false }
}

/**
 * A row's values as displayed: accumulated for the cumulative display
 * (distinct-actor maths were computed as new actors per bucket), then
 * smoothed: PostHog's newest query smooths the row it would have shown.
 */
function asDisplayed(request: TrendRequest, row: ValueRow): ValueRow {
  let shown = row
  if (request.display === 'ActionsLineGraphCumulative' && !request.totalValue) {
    let sum = 0
    shown = { ...row, values: row.values.map((v) => (sum += v)) }
  }
  return request.smoothingIntervals > 1 ? { ...shown, values: smoothValues(shown.values, request.smoothingIntervals) } : shown
}

/** Equal-width bins of each histogram dimension, from the smallest and largest number among the rows the series counts. */
/**
 * unique_group reads only events with the group (PostHog's `$group_N != ''`),
 * so its bins span those events alone (the `min_max` CTE is `_base_events_query()`).
 */
function groupOnly(series: TrendSeries, sources: QuerySources): RawBuilder<unknown> {
  if (series.math !== 'unique_group' || series.groupTypeIndex === null) return sql``
  return sql` and ${sources.groupKeys[series.groupTypeIndex]} <> ''`
}

export async function histogramBinsFor(ctx: EngineContext, request: TrendRequest, series: TrendSeries, env: QueryEnv, plan: SeriesPlan): Promise<Array<HistogramBin[] | null>> {
  const dims = request.breakdowns.map((b, i) => (b.histogramBinCount !== null ? i : -1)).filter((i) => i >= 0)
  if (dims.length === 0) return request.breakdowns.map(() => null)
  const firstTime = plan.kind === 'first-time'
  const scope = seriesScope(env, request, series, firstTime ? null : plan.range, { withoutPersons: !firstTime })
  const values = dims.map((i) => sql`${breakdownNumberSql(env, request, i, scope.sources)} as ${sql.raw(`x${i}`)}`)
  const bounds = dims.flatMap((i) => [sql`${sqlCast(sql`min(${sql.raw(`x${i}`)})`, 'float8')} as ${sql.raw(`lo${i}`)}`, sql`${sqlCast(sql`max(${sql.raw(`x${i}`)})`, 'float8')} as ${sql.raw(`hi${i}`)}`])
  const s = scope.sources
  // first_time_for_user bins the values of the first events it counts, as its rows are those events.
  const rows = firstTime
    ? sql`select * from (${firstEventsSql(sql`select ${sql.join(values, sql`, `)}, ${s.timestampMicros} as u, ${PERSON_KEY} as fp, ${s.timestamp} as ft, cast(${s.uuid} as text) as fu from ${scope.from} where ${scope.where}`)}) as f
        where frn = 1 and u >= ${sql.lit(plan.range.fromMicros)} and u <= ${sql.lit(plan.range.toMicros)}`
    : sql`select ${sql.join(values, sql`, `)} from ${scope.from} where ${scope.where}${groupOnly(series, s)}`
  const query = sql<Record<string, unknown>>`select ${sql.join(bounds, sql`, `)} from (${rows}) as r`
  const [row] = (await runStorage('trend histogram bins', () => query.execute(ctx.db))).rows
  return request.breakdowns.map((b, i) => {
    if (b.histogramBinCount === null) return null
    const lo = row?.[`lo${i}`]
    const hi = row?.[`hi${i}`]
    return histogramBins(lo === null || lo === undefined ? null : Number(lo), hi === null || hi === undefined ? null : Number(hi), b.histogramBinCount)
  })
}
