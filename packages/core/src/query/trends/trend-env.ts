import { sql } from 'kysely'
import type { EngineContext } from '../../context.js'
import { runStorage } from '../../db/run.js'
import { prepareQueryExtensions } from '../analysis/query-extensions.js'
import { loadHogqlParser } from '../hogql/index.js'
import { loadQueryProject } from '../scope/query-project.js'
import type { Period, PeriodsContext } from './periods.js'
import { trendPeriods } from './periods.js'
import type { QueryEnv } from './series-scope.js'
import type { TrendRequest } from './trend-request.js'

// PostHog's EARLIEST_TIMESTAMP: earlier timestamps are clock errors, not the start of "all".
const EARLIEST_TIMESTAMP = '2015-01-01T00:00:00.000000Z'

/** The project, dialect and loaded actions of one request. */
export async function queryEnv(ctx: EngineContext, projectId: number, request: TrendRequest): Promise<QueryEnv> {
  const project = await loadQueryProject(ctx, projectId)
  const actions = request.series
    .filter((s) => s.entity.kind === 'actions')
    .map((s) => ({ id: s.entity.actionId!, path: ['actions', s.entity.index] as Array<string | number> }))
  const extensions = await prepareQueryExtensions(ctx, projectId, { actions })
  // The WebAssembly parser loads once per process, and only for requests that need it.
  if (request.series.some((s) => s.math === 'hogql') || request.breakdowns.some((b) => b.type === 'hogql')) await loadHogqlParser()
  return { project, hooks: ctx.adapter.sql, extensions, now: ctx.clock() }
}

/**
 * `date_from: "all"` starts at the project's earliest event after PostHog's
 * EARLIEST_TIMESTAMP (reference §3.1: "the earliest event timestamp in the
 * project"; PostHog 2024's `get_earliest_timestamp_from_series` reads the
 * whole events table for event and action series).
 */
function earliestEvent(ctx: EngineContext, env: QueryEnv): () => Promise<Date | null> {
  return async () => {
    const query = sql<{ t: string | null }>`select min(timestamp) as t from events where project_id = ${env.project.id} and timestamp > cast(${EARLIEST_TIMESTAMP} as timestamptz)`
    const [row] = (await runStorage('read earliest event', () => query.execute(ctx.db))).rows
    return row?.t ? new Date(row.t) : null
  }
}

/**
 * The request's periods: the current one and, with `compare`, the previous
 * one. BoldNumber uses the exact range (PostHog: no rounding of either bound).
 */
export function requestPeriods(ctx: EngineContext, env: QueryEnv, request: TrendRequest): Promise<Period[]> {
  const context: PeriodsContext = {
    timezone: env.project.timezone,
    weekStartDay: env.project.weekStartDay,
    now: ctx.clock(),
    earliestEvent: earliestEvent(ctx, env),
  }
  return trendPeriods(
    {
      interval: request.interval,
      dateFrom: request.dateFrom,
      dateTo: request.dateTo,
      explicitDate: request.explicitDate || (request.insight === 'TRENDS' && request.display === 'BoldNumber'),
      compare: request.compare,
      compareTo: request.compareTo,
    },
    context,
  )
}
