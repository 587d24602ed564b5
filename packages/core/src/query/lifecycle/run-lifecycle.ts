import { sql, type Expression } from 'kysely'
import type { EngineContext } from '../../context.js'
import { runStorage } from '../../db/run.js'
import { bucketOfMs } from '../dates/buckets.js'
import { timestampBucketIndexSql } from '../dates/bucket-index-sql.js'
import { bucketDay, bucketLabel, isoInZone } from '../dates/bucket-labels.js'
import type { Period } from '../dates/periods.js'
import { entityKeys, personsLink, type PersonsLink } from '../trends/persons-url.js'
import { personText, seriesScope, type SeriesScope } from '../trends/series-scope.js'
import { PERSON_KEY } from '../scope/event-scope.js'
import type { QueryEnv } from '../analysis/query-env.js'
import { checkTrendAnswer, requestPeriods } from '../trends/trend-env.js'
import type { TrendRequest, TrendSeries } from '../trends/trend-request.js'
import { LIFECYCLE_STATUSES, lifecycleCountsSql, lifecycleStatusSql, type LifecycleStatus } from './lifecycle-sql.js'

/** One lifecycle series (reference §12). */
export interface LifecycleObject {
  status: LifecycleStatus
  label: string
  /** The series' entity: the event name (null for "All events") or the action's label. */
  action: { id: string | null; name: string; type: 'events'; order: number; math: 'total' }
  data: number[]
  count: number
  days: string[]
  labels: string[]
  persons_urls: PersonsLink[]
}

/** The grid lifecycle reads: the period before the range, then the range's periods (index i + 1 is bucket i). */
export interface LifecycleGrid {
  readonly starts: ReadonlyArray<number>
  readonly end: number
}

export function lifecycleGrid(period: Period): LifecycleGrid {
  const first = period.starts[0]!
  const before = bucketOfMs(first - 1, period.interval, period.timeZone, period.weekStartDay)
  return { starts: [before, ...period.starts], end: period.ends[period.ends.length - 1]! }
}

/**
 * The statuses of each person's activity periods for the request's first
 * series: events from the start of the period before the range to the end of
 * the period holding `date_to` (so the last period is always whole).
 * Persons are named by their id as text (actors lists), or by `PERSON_KEY`
 * with `person: 'key'` (counts alone).
 */
export function lifecycleStatuses(env: QueryEnv, request: TrendRequest, series: TrendSeries, period: Period, person: 'id' | 'key' = 'id') {
  const grid = lifecycleGrid(period)
  const scope: SeriesScope = seriesScope(env, { ...request, breakdowns: [] }, series, { fromMicros: grid.starts[0]! * 1000, toMicros: grid.end * 1000 - 1 }, { person: true })
  const starts = grid.starts.map((ms) => new Date(ms))
  const end = new Date(grid.end)
  const bucket = timestampBucketIndexSql(scope.sources.timestamp, scope.sources.timestampMicros, starts, end, env.hooks)
  // `p` is eventScope's alias of the persons table, joined because the scope asks for person data.
  const createdAt = sql.ref('p.created_at')
  const created: Expression<number> = timestampBucketIndexSql(createdAt, env.hooks.epochMicros(createdAt), starts, end, env.hooks)
  return lifecycleStatusSql(scope, bucket, created, person === 'key' ? PERSON_KEY : personText())
}

/**
 * Lifecycle (reference §12): four series, new, returning, resurrecting and
 * dormant (negative), of the first series of the request, one value per
 * bucket of the range. Persons are merged across distinct ids; `new` needs
 * the first activity in the period of the person's `created_at`.
 */
export async function runLifecycle(ctx: EngineContext, env: QueryEnv, request: TrendRequest, projectId: number): Promise<LifecycleObject[]> {
  const periods = await requestPeriods(ctx, env, { ...request, compare: false, compareTo: null })
  checkTrendAnswer(ctx, request, periods)
  const [period] = periods
  const series = request.series[0]!
  const n = period!.starts.length
  const data = Object.fromEntries(LIFECYCLE_STATUSES.map((s) => [s, new Array<number>(n).fill(0)])) as Record<LifecycleStatus, number[]>
  if (n > 0) {
    const query = lifecycleCountsSql(lifecycleStatuses(env, request, series, period!, 'key'))
    for (const r of (await runStorage('lifecycle', () => query.execute(ctx.db))).rows) {
      const i = Number(r.b) - 1
      if (i >= 0 && i < n) data[r.status]![i] = r.status === 'dormant' ? -Number(r.v) : Number(r.v)
    }
  }
  const days = period!.starts.map((ms) => bucketDay(period!, ms))
  const labels = period!.starts.map((ms) => bucketLabel(period!, ms))
  const name = series.entity.kind === 'events' ? series.entity.event : series.label
  return LIFECYCLE_STATUSES.map((status) => ({
    status,
    label: `${series.label} - ${status}`,
    action: { id: name, name: series.label, type: 'events', order: 0, math: 'total' },
    data: data[status],
    count: data[status].reduce((a, b) => a + b, 0),
    days,
    labels,
    persons_urls: period!.starts.map((ms) =>
      personsLink(projectId, request, { ...entityKeys(series), lifecycle_type: status, target_date: isoInZone(period!.timeZone, ms * 1000) }),
    ),
  }))
}
