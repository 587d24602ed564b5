import { sql, type Expression } from 'kysely'
import type { EngineContext } from '../../context.js'
import { runStorage } from '../../db/run.js'
import { timestampBucketIndexSql } from '../dates/bucket-index-sql.js'
import type { Period } from '../dates/periods.js'
import { entityKeys, personsLink, type PersonsLink } from '../trends/persons-url.js'
import { filterObject } from '../trends/series-object.js'
import { periodGrid } from '../trends/series-plan.js'
import { personText, seriesScope, type SeriesScope } from '../trends/series-scope.js'
import type { QueryEnv } from '../analysis/query-env.js'
import { checkTrendAnswer, requestPeriods } from '../trends/trend-env.js'
import type { TrendRequest, TrendSeries } from '../trends/trend-request.js'
import { stickinessSql } from './stickiness-sql.js'
import { personKeySql } from '../trends/cells-sql.js'

/** One stickiness series (reference §11). */
export interface StickinessObject {
  data: number[]
  days: number[]
  labels: string[]
  count: number
  label: string
  /** The series' entity: its label (null for "All events"), position and custom name. */
  action: { order: number; type: 'events'; name: string; id: string | null; custom_name: string | null }
  filter: Record<string, unknown>
  compare?: boolean
  compare_label?: 'current' | 'previous'
  persons_urls: PersonsLink[]
}

/**
 * The events of a stickiness series: PostHog keeps them from the start of
 * the interval holding `date_from` (for weeks too, unlike trends) to `date_to`.
 */
export function stickinessScope(env: QueryEnv, request: TrendRequest, series: TrendSeries, period: Period): SeriesScope {
  const from = period.starts.length > 0 ? Math.min(period.starts[0]! * 1000, period.fromMicros) : period.fromMicros
  return seriesScope(env, request, series, { fromMicros: from, toMicros: period.toMicros })
}

/** The actor stickiness lists: the person's id as text, or `$group_N` for `unique_group`. */
export function stickinessActor(series: TrendSeries, scope: SeriesScope): Expression<string | null> {
  return series.math === 'unique_group' ? scope.sources.groupKeys[series.groupTypeIndex!]! : personText()
}

/**
 * The actor stickiness counts, null where there is none ('' in the text):
 * the person as a fixed-size key (`personKeySql`), which groups far faster
 * than its text, or the group key.
 */
export function stickinessKey(series: TrendSeries, scope: SeriesScope): Expression<string | null> {
  return series.math === 'unique_group' ? sql<string | null>`nullif(${scope.sources.groupKeys[series.groupTypeIndex!]!}, '')` : personKeySql()
}

/** The bucket index of each row over the period's buckets. */
export function stickinessBucket(period: Period, scope: SeriesScope): Expression<number> {
  const grid = periodGrid(period)
  const { timestamp, timestampMicros, hooks } = scope.sources
  return timestampBucketIndexSql(timestamp, timestampMicros, grid.starts.map((ms) => new Date(ms)), new Date(grid.end), hooks)
}

/**
 * Stickiness (reference §11): for each series and period, `data[k-1]` is the
 * number of actors (persons, or groups for `unique_group`) with a matching
 * event in exactly k of the N buckets of the range; `days` are 1..N and
 * labels `"1 day"`, `"2 days"`, ... With compare, every current series
 * comes first, then every previous one.
 */
export async function runStickiness(ctx: EngineContext, env: QueryEnv, request: TrendRequest, projectId: number): Promise<StickinessObject[]> {
  const periods = await requestPeriods(ctx, env, request)
  checkTrendAnswer(ctx, request, periods)
  const out: StickinessObject[] = []
  for (const period of periods) {
    for (const series of request.series) {
      const n = period.starts.length
      const data = new Array<number>(n).fill(0)
      if (n > 0) {
        const scope = stickinessScope(env, request, series, period)
        const query = stickinessSql(scope, stickinessBucket(period, scope), stickinessKey(series, scope))
        const rows = (await runStorage('stickiness series', () => query.execute(ctx.db))).rows
        for (const r of rows) {
          const c = Number(r.c)
          if (c >= 1 && c <= n) data[c - 1] = Number(r.v)
        }
      }
      const days = data.map((_, i) => i + 1)
      const e = series.entity
      const object: StickinessObject = {
        data,
        days,
        labels: days.map((k) => `${k} ${request.interval}${k === 1 ? '' : 's'}`),
        count: data.reduce((a, b) => a + b, 0),
        label: series.label,
        action: { order: e.index, type: 'events', name: series.label, id: e.kind === 'events' && e.event === null ? null : series.label, custom_name: e.customName },
        filter: filterObject(request, period),
        persons_urls: days.map((k) =>
          personsLink(projectId, request, { ...entityKeys(series), stickiness_days: k, compare_label: period.compareLabel ?? undefined }),
        ),
      }
      if (period.compareLabel !== null) {
        object.compare = true
        object.compare_label = period.compareLabel
      }
      out.push(object)
    }
  }
  return out
}
