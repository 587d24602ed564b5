import { sql, type Expression, type RawBuilder, type SqlBool } from 'kysely'
import type { EngineContext } from '../../context.js'
import { ValidationError } from '../../errors.js'
import { timestampBucketIndexSql } from '../dates/bucket-index-sql.js'
import { lifecycleActorsSql } from '../lifecycle/lifecycle-actors.js'
import { PERSON_KEY } from '../scope/event-scope.js'
import { stickinessActorsSql } from '../stickiness/stickiness-actors.js'
import { pageActors, type ActorsPage, type ActorsResult } from '../actors/actor-details.js'
import { OTHER_MARKER } from '../breakdowns/breakdown-markers.js'
import { actorSql, type CellsInput } from './cells-sql.js'
import { firstEventsSql } from './first-events-sql.js'
import { notOneOfSql } from './key-filter.js'
import type { Period } from '../dates/periods.js'
import { decodePoint, pointBucket, type Point } from './point-params.js'
import { breakdownKeysSql, seriesScope } from './series-scope.js'
import type { QueryEnv } from '../analysis/query-env.js'
import type { QuerySources } from '../scope/query-sources.js'
import { planSeries, type SeriesPlan } from './series-plan.js'
import { histogramBinsFor, seriesValues } from './series-values.js'
import { queryEnv, requestPeriods } from './trend-env.js'
import { decodeTrendRequest, type TrendRequest, type TrendSeries } from './trend-request.js'

export type { ActorsPage, ActorsResult, TrendActor } from '../actors/actor-details.js'

const MAX_PAGE = 10_000

/**
 * The persons (groups for `unique_group`) behind one point of a trend,
 * stickiness or lifecycle result: what its `persons_urls` / `persons` links
 * answer. `params` is the request plus the point keys the links add
 * (`entity_order`, `target_date`, `breakdown_value`, `compare_label`,
 * `lifecycle_type`, `stickiness_days`; see persons-url.ts). Actors come
 * ordered by their matching events, most first, then id; `count` is the
 * number of actors behind the point (for `dau`, the point's value).
 * Throws ValidationError naming the field for bad parameters or a point
 * outside the result.
 */
export async function trendActors(ctx: EngineContext, projectId: number, params: unknown, page: ActorsPage): Promise<ActorsResult> {
  ctx.assertOpen()
  if (!Number.isSafeInteger(page.limit) || page.limit < 0 || page.limit > MAX_PAGE) throw badPage('limit', `limit is between 0 and ${MAX_PAGE}`)
  if (!Number.isSafeInteger(page.offset) || page.offset < 0) throw badPage('offset', 'offset is a non-negative integer')
  const request = decodeTrendRequest(params)
  const point = decodePoint(params, request)
  const env = await queryEnv(ctx, projectId, request)
  const periods = await requestPeriods(ctx, env, request.insight === 'LIFECYCLE' ? { ...request, compare: false, compareTo: null } : request)
  const period = periods[point.compareLabel === 'previous' ? 1 : 0]!
  const series = request.series[point.series]!
  if (request.insight === 'STICKINESS') return pageActors(ctx, projectId, stickinessActorsSql(env, request, series, period, point.stickinessDays!), page, groupIndex(series))
  if (request.insight === 'LIFECYCLE') {
    const bucket = pointBucket(period, point.targetDate!)
    return pageActors(ctx, projectId, lifecycleActorsSql(env, request, series, period, bucket, point.lifecycleStatus!), page, null)
  }
  return pageActors(ctx, projectId, await trendPointActorsSql(ctx, env, request, series, period, point), page, groupIndex(series))
}

const groupIndex = (series: TrendSeries) => (series.math === 'unique_group' ? series.groupTypeIndex : null)
const badPage = (field: string, message: string) => new ValidationError([{ path: [field], message }], { context: 'invalid page' })

/**
 * `{ a, n }` for a trend point: the actors of the series' rows that the
 * point's value counts. A bucket of a time series is its own rows; in the
 * cumulative display, every bucket up to it; for active users, the rows of
 * its window; for a total-value display (no `target_date`), the whole range.
 * The breakdown value selects rows by value, and Other by not being one of
 * the values the result keeps.
 */
async function trendPointActorsSql(ctx: EngineContext, env: QueryEnv, request: TrendRequest, series: TrendSeries, period: Period, point: Point): Promise<RawBuilder<unknown>> {
  const plan = planSeries(request, series, period)
  let scope = seriesScope(env, request, series, plan.kind === 'first-time' ? null : plan.range)
  const bins = await histogramBinsFor(ctx, request, series, env, plan)
  const keys = breakdownKeysSql(env, request, scope.sources, bins)
  const input: CellsInput = { scope, bucket: null, keys, fold: false }
  const bucket = point.targetDate === null || request.totalValue ? null : pointBucket(period, point.targetDate)
  const cumulative = request.display === 'ActionsLineGraphCumulative' && !request.totalValue

  const conditions: Expression<SqlBool>[] = [sql<SqlBool>`a is not null and a <> ''`]
  const keyRefs = keys.map((_, i) => sql.ref(`k${i}`) as Expression<string>)
  const cohort = request.breakdowns[0]?.type === 'cohort'
  if (point.breakdown && cohort) {
    // A cohort value selects the cohort's persons (every person for `all`).
    const id = point.breakdown[0]!
    if (id !== 'all') {
      const n = Number(id)
      if (!Number.isSafeInteger(n)) throw new ValidationError([{ path: ['breakdown_value'], message: 'a cohort breakdown value is a cohort id or "all"' }], { context: 'invalid persons parameters' })
      scope = { ...scope, where: sql<SqlBool>`(${scope.where} and ${env.extensions.cohortCondition(n, ['breakdown_value'])})` }
    }
  } else if (point.breakdown) {
    if (point.breakdown.every((p) => p === OTHER_MARKER)) {
      const outcome = await seriesValues(ctx, env, request, series, period)
      conditions.push(notOneOfSql(keyRefs, outcome.rows.filter((r) => !r.other).map((r) => r.parts), env.hooks))
    } else conditions.push(sql<SqlBool>`(${sql.join(point.breakdown.map((v, i) => sql`${keyRefs[i]!} = ${v}`), sql` and `)})`)
  }
  if (bucket !== null) conditions.push(bucketCondition(plan, bucket, cumulative))

  const s = scope.sources
  const columns = [
    sql`${actorSql(series, input)} as a`,
    sql`${s.timestampMicros} as u`,
    ...keys.map((k, i) => sql`${k} as ${sql.raw(`k${i}`)}`),
    sql`${gridBucket(plan, scope.sources, env)} as b`,
  ]
  if (plan.kind === 'first-time') {
    // The person's first matching event ever, counted when it falls in the range (and the point).
    const rows = sql`select ${sql.join(columns, sql`, `)}, ${PERSON_KEY} as fp, ${s.timestamp} as ft, cast(${s.uuid} as text) as fu from ${scope.from} where ${scope.where}`
    const ranked = firstEventsSql(rows)
    const from = sql<SqlBool>`u >= ${sql.lit(plan.range.fromMicros)} and u <= ${sql.lit(plan.range.toMicros)} and frn = 1`
    return sql`select a, count(*) as n from (${ranked}) as r where ${sql.join([from, ...conditions], sql` and `)} group by a`
  }
  const rows = sql`select ${sql.join(columns, sql`, `)} from ${scope.from} where ${scope.where}`
  return sql`select a, count(*) as n from (${rows}) as r where ${sql.join(conditions, sql` and `)} group by a`
}

/** The bucket index in the plan's own grid (the period's buckets), -1 when the plan has none. */
function gridBucket(plan: SeriesPlan, sources: QuerySources, env: QueryEnv): Expression<number> {
  const grid = plan.kind === 'per-bucket' || plan.kind === 'first-seen' || plan.kind === 'first-time' ? plan.buckets : null
  if (!grid) return sql<number>`cast(-1 as bigint)`
  return timestampBucketIndexSql(sources.timestamp, sources.timestampMicros, grid.starts.map((ms) => new Date(ms)), new Date(grid.end), env.hooks)
}

/** The rows a bucket's value counts: the bucket (all buckets up to it, accumulated), or its active-users window. */
function bucketCondition(plan: SeriesPlan, i: number, cumulative: boolean): Expression<SqlBool> {
  const between = (lo: number, hi: number) => sql<SqlBool>`u >= ${sql.lit(lo)} and u < ${sql.lit(hi)}`
  switch (plan.kind) {
    case 'active-days': {
      // Window i covers the days lastDay[i] - N + 1 .. lastDay[i].
      const dayStart = (d: number) => plan.days.starts[Math.max(0, d)]! * 1000
      const end = (d: number) => (plan.days.starts[d + 1] ?? plan.days.end) * 1000
      return between(dayStart(plan.lastDay[cumulative ? 0 : i]! - plan.windowDays + 1), end(plan.lastDay[i]!))
    }
    case 'active-windows':
      return between(plan.windows[cumulative ? 0 : i]!.loMicros, plan.windows[i]!.hiMicros)
    default:
      return cumulative ? sql<SqlBool>`b >= 0 and b <= ${sql.lit(i)}` : sql<SqlBool>`b = ${sql.lit(i)}`
  }
}
