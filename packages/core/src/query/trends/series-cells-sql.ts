import type { Expression, SqlBool } from 'kysely'
import type { QueryEnv } from '../analysis/query-env.js'
import { timestampBucketIndexSql } from '../dates/bucket-index-sql.js'
import { activeDaysCellsSql, activeWindowsCellsSql } from './active-users-sql.js'
import { cellsSql, type CellsInput, type CellsSql } from './cells-sql.js'
import { firstSeenCellsSql, firstTimeCellsSql } from './first-seen-sql.js'
import { isPropertyMath } from './maths.js'
import type { BucketGrid, SeriesPlan } from './series-plan.js'
import { seriesScope, type SeriesScope } from './series-scope.js'
import type { TrendRequest, TrendSeries } from './trend-request.js'

/**
 * The events one series' cells read in its plan's range (every event for
 * `first_time_for_user`, whose first events may lie before it), with the
 * persons joined only when the plan's SQL reads them.
 */
export function seriesCellsScope(env: QueryEnv, request: TrendRequest, series: TrendSeries, plan: SeriesPlan): SeriesScope {
  return seriesScope(env, request, series, plan.kind === 'first-time' ? null : plan.range, { withoutPersons: !readsPerson(plan) })
}

/**
 * The SQL of one series' cells, `(b, k0.., v)` rows, for its plan: pure,
 * with no database. `keys` are the breakdown values' expressions (none
 * without a breakdown); `fold` counts every value as one (Other's cells);
 * `filter` keeps the rows whose keys it accepts.
 */
export function seriesCellsSql(
  series: TrendSeries,
  plan: SeriesPlan,
  input: { readonly scope: SeriesScope; readonly keys: ReadonlyArray<Expression<string>>; readonly env: QueryEnv },
  fold: boolean,
  filter: ((keys: ReadonlyArray<Expression<string>>) => Expression<SqlBool>) | null,
): CellsSql {
  const cells: CellsInput = { scope: input.scope, bucket: bucketSql(plan, input.scope), keys: input.keys, fold, env: input.env }
  if (plan.kind === 'first-time') return firstTimeCellsSql(cells, plan.range, filter)
  const filtered: CellsInput = filter ? { ...cells, filter: filter(cells.keys) } : cells
  switch (plan.kind) {
    case 'per-bucket':
      return cellsSql({ ...series, math: plan.math }, filtered)
    case 'first-seen':
      return firstSeenCellsSql(series, filtered)
    case 'active-days':
      return activeDaysCellsSql(series, filtered, plan.windowDays)
    case 'active-windows':
      return activeWindowsCellsSql(series, filtered, plan.windows)
  }
}

/** Whether a plan's SQL reads the row's person (actor maths, first events per person, counts per person). */
function readsPerson(plan: SeriesPlan): boolean {
  if (plan.kind === 'first-time') return true
  const math = plan.kind === 'per-bucket' ? plan.math : null
  return math === null || !(math === 'total' || math === 'unique_group' || math === 'unique_session' || isPropertyMath(math))
}

function bucketSql(plan: SeriesPlan, scope: SeriesScope): Expression<number> | null {
  const grid: BucketGrid | null = plan.kind === 'active-days' ? plan.days : plan.kind === 'active-windows' ? null : plan.buckets
  if (!grid) return null
  const s = scope.sources
  return timestampBucketIndexSql(s.timestamp, s.timestampMicros, grid.starts.map((ms) => new Date(ms)), new Date(grid.end), s.hooks)
}
