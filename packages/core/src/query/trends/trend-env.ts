import type { EngineContext } from '../../context.js'
import { checkAnswerBudget } from '../execution/query-budget.js'
import { bucketLimitOf } from '../execution/query-limits.js'
import { encodeParams } from '../actors/encode-params.js'
import { prepareQueryExtensions } from '../analysis/query-extensions.js'
import { earliestEvent } from '../scope/earliest-event.js'
import { loadQueryProject } from '../scope/query-project.js'
import type { Period, PeriodsContext } from '../dates/periods.js'
import { trendPeriods } from '../dates/periods.js'
import type { QueryEnv } from '../analysis/query-env.js'
import { trendPeriodsInput, type TrendRequest } from './trend-request.js'

/** The project, dialect and loaded actions of one request. */
export async function queryEnv(ctx: EngineContext, projectId: number, request: TrendRequest): Promise<QueryEnv> {
  const project = await loadQueryProject(ctx, projectId)
  const actions = request.series
    .filter((s) => s.entity.kind === 'actions')
    .map((s) => ({ id: s.entity.actionId!, path: ['actions', s.entity.index] as Array<string | number> }))
  // The extensions load the HogQL parser (once per process) with the actions and cohorts.
  const extensions = await prepareQueryExtensions(ctx, project, { actions })
  return { project, hooks: ctx.adapter.sql, extensions, now: ctx.clock() }
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
    // date_from: "all" starts at the project's earliest event (reference §3.1).
    earliestEvent: earliestEvent(ctx, env.project.id),
    bucketLimit: bucketLimitOf(ctx.limits),
  }
  return trendPeriods(trendPeriodsInput(request), context)
}

/**
 * Refuses, before any query, a trend, stickiness or lifecycle answer over
 * the engine's cell or size budget (`QueryLimits`): its rows are periods x
 * series x breakdown values (Other included; four statuses for lifecycle),
 * its columns the buckets, and each point carries a persons URL that
 * repeats the request.
 */
export function checkTrendAnswer(ctx: EngineContext, request: TrendRequest, periods: ReadonlyArray<Period>): void {
  const cohorts = request.breakdowns[0]?.type === 'cohort' ? request.breakdowns[0].cohorts.length : null
  const perSeries =
    request.insight === 'LIFECYCLE' ? 4 : request.breakdowns.length === 0 ? 1 : (cohorts ?? request.breakdownLimit + (request.hideOther ? 0 : 1))
  const series = request.insight === 'LIFECYCLE' ? 1 : request.series.length
  const buckets = Math.max(0, ...periods.map((p) => p.starts.length))
  checkAnswerBudget(ctx.limits, {
    rows: periods.length * series * perSeries,
    columns: request.totalValue ? 1 : buckets,
    // The URL repeats the request; its point keys, the point's label, date and value add about
    // 430 bytes (measured: 586 bytes a point for a request of 150 encoded bytes).
    bytesPerCell: encodeParams(request.params).length + 450,
    rowsAttr: perSeries > series ? 'breakdown_limit' : 'events',
    columnsAttr: 'interval',
  })
}
