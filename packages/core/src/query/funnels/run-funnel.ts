import { nowIso } from '../../time/timestamp.js'
import { sql } from 'kysely'
import type { EngineContext } from '../../context.js'
import { runStorage } from '../../db/run.js'
import { funnelEnv, type FunnelEnv } from './funnel-env.js'
import type { FunnelRequest } from './funnel-request.js'
import { funnelStepsSql, funnelTimeToConvertSql, funnelTrendsSql } from './funnel-sql.js'
import { decodeFunnelRequest } from './params/decode-funnel-params.js'
import { stepsResult, type FunnelBreakdownStep, type FunnelStep } from './shape/steps-result.js'
import { timeToConvertResult, type FunnelTimeToConvert } from './shape/time-to-convert-result.js'
import { trendsResult, type FunnelTrendsSeries } from './shape/trends-result.js'
import { bucketLimitOf } from '../execution/query-limits.js'
import { boundedRows } from '../execution/bounded-rows.js'
import { checkAnswerBudget } from '../execution/query-budget.js'
import { samplingNotice, type SamplingNotice } from '../analysis/sampling-factor.js'

/**
 * A funnel's `result` by `funnel_viz_type`: the steps (one list per
 * breakdown value with a breakdown), the trends series, or time to convert.
 */
export type FunnelResult = FunnelStep[] | FunnelBreakdownStep[][] | FunnelTrendsSeries[] | FunnelTimeToConvert

/** The legacy funnel endpoint's answer. Caching is not implemented: every answer is computed now. */
export interface FunnelResponse<R extends FunnelResult = FunnelResult> extends Partial<SamplingNotice> {
  readonly result: R
  readonly timezone: string
  readonly last_refresh: string
  readonly is_cached: false
}

/**
 * Computes a funnel for `params`, PostHog's legacy filter (JSON body or GET
 * query text): the steps view, trends or time to convert, with PostHog's
 * semantics (packages/core/README.md, "Funnels"). All the work happens in
 * the database, in one statement. Throws ValidationError naming the field
 * for bad input, NotFoundError for an unknown project.
 */
export async function runFunnel(ctx: EngineContext, projectId: number, params: unknown): Promise<FunnelResponse> {
  ctx.assertOpen()
  const request = decodeFunnelRequest(params)
  const env = await funnelEnv(ctx, projectId, request)
  const result =
    request.viz === 'time_to_convert'
      ? await timeToConvertView(ctx, request, env)
      : request.viz === 'trends'
        ? await trendsView(ctx, request, env)
        : await stepsView(ctx, request, env)
  return { result, timezone: env.project.timezone, last_refresh: nowIso(ctx.clock), is_cached: false, ...samplingNotice(params) }
}

async function stepsView(ctx: EngineContext, request: FunnelRequest, env: FunnelEnv): Promise<FunnelStep[] | FunnelBreakdownStep[][]> {
  const { query } = funnelStepsSql(ctx.adapter.sql, request, env)
  const rows = (await runStorage('run funnel', () => sql<Record<string, unknown>>`${query}`.execute(ctx.db))).rows
  return stepsResult(rows, { request, projectId: env.project.id, actionNames: env.actionNames, cohortNames: env.cohortNames })
}

async function timeToConvertView(ctx: EngineContext, request: FunnelRequest, env: FunnelEnv): Promise<FunnelTimeToConvert> {
  const query = funnelTimeToConvertSql(ctx.adapter.sql, request, env)
  const rows = (await runStorage('run funnel time to convert', () => sql<Record<string, unknown>>`${query}`.execute(ctx.db))).rows
  return timeToConvertResult(rows)
}

async function trendsView(ctx: EngineContext, request: FunnelRequest, env: FunnelEnv): Promise<FunnelTrendsSeries[]> {
  const { starts, query } = funnelTrendsSql(ctx.adapter.sql, request, env, bucketLimitOf(ctx.limits))
  const shown = request.breakdown === null ? 1 : request.breakdown.limit + 1
  checkAnswerBudget(ctx.limits, { rows: shown, columns: starts.length, bytesPerCell: 100, rowsAttr: 'breakdown_limit', columnsAttr: 'interval' })
  // One row per (breakdown value, period): bounded, as a breakdown's values come from the data.
  const rows = await boundedRows<Record<string, unknown>>(ctx, 'run funnel trends', sql`${query}`, { attr: 'breakdown', rows: '(breakdown value, period) rows' })
  return trendsResult(rows, { request, project: env.project, range: env.range, periods: starts.map((d) => d.getTime()), cohortNames: env.cohortNames })
}
